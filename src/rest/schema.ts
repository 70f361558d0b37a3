import { buildSchema } from '../graphql/schema.ts';
import { routes } from './routes.ts';

// The REST shim's schema: the public one with its resolvers, except that the inputs the routes fill from a
// body are scalars of the same name, taken as given. A malformed body thus reaches the domain operation,
// which settles access (404, 401, 403) before it checks its input (400/422). Why: docs/decisions.md, REST bodies.

/** The public input types the routes' bodies become (src/rest/bodies.ts). */
export const bodyInputTypes = [...new Set(routes.flatMap((route) => (route.input ? [route.input.inputType] : [])))];

export const buildRestSchema = () => buildSchema({ inputsAsGiven: bodyInputTypes });
