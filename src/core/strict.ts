/**
 * Resolver map of a GraphQL type whose fields missing from its mapper model are required: a field the
 * model cannot answer by itself with no resolver fails the type-check.
 */
export type Strict<Resolvers, Model> = Resolvers & Required<Pick<Resolvers, Exclude<keyof Resolvers, keyof Model | '__isTypeOf'>>>;
