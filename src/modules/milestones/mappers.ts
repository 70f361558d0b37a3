import type { User } from '../../generated/prisma/client.ts';

// The values the milestone types are resolved from (codegen.ts `mappers`).

export type PublishEditionPayloadMapper = { user: User };
