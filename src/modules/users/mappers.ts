// The values the user types are resolved from (codegen.ts `enumValues`); User, Milestone and Objective are Prisma's models.

/** UserRole's values as the database stores them. */
export const userRoles = { TEACHER: 'teacher', STUDENT: 'student', STAFF: 'staff' } as const;
