import type { User } from '../generated/prisma/client.ts';
import { forbidden } from '../core/errors.ts';
import { allowAnonymous, requireUser } from './guards.ts';
import type { Viewer } from './viewer.ts';

// Who may do what, as a table: the twin of docs/contract.md, Who may do what (tests/unit/access.test.ts keeps
// them alike). Each operation of src/modules/*/operations.ts makes one call, `assertAccess`, once the resource
// is found; a rule about the resource takes what its read already brought (`viewerTeaches`, computed in SQL).

type Rule =
  /** Anyone; a wrong credential is still 401, an identity provider that cannot answer 503 (but for a session cookie). */
  | { who: 'anyone' }
  /** Any signed-in user. */
  | { who: 'signed-in' }
  /** The user the resource is: `{ userId }`. */
  | { who: 'self'; refusal: string }
  /** Staff. */
  | { who: 'staff'; refusal: string }
  /** A teacher (owner or co-teacher) of the resource's classroom: `{ viewerTeaches }`. */
  | { who: 'teacher'; refusal: string }
  /** A teacher of the lesson's classroom or one of its students: `{ viewerFollows }`. */
  | { who: 'follower'; refusal: string };

export const ACCESS = {
  'activity.read': { who: 'anyone' },
  'activity.create': { who: 'staff', refusal: 'Only staff may change activities' },
  'activity.update': { who: 'staff', refusal: 'Only staff may change activities' },
  'activity.delete': { who: 'staff', refusal: 'Only staff may change activities' },
  'viewer.read': { who: 'anyone' },
  'user.read': { who: 'self', refusal: 'Only the user themself may read this user' },
  'user.readProgress': { who: 'self', refusal: "Only the user themself may read this user's milestones and objectives" },
  'edition.publish': { who: 'signed-in' },
  'classroomActivity.read': { who: 'teacher', refusal: 'Only a teacher of this classroom may do this' },
  'classroomActivity.unpinAndLock': { who: 'teacher', refusal: 'Only a teacher of this classroom may do this' },
  'classroomActivity.launch': { who: 'teacher', refusal: 'Only a teacher of this classroom may do this' },
  'classroomActivity.finish': { who: 'teacher', refusal: 'Only a teacher of this classroom may do this' },
  'lesson.follow': { who: 'follower', refusal: 'Only the teachers and students of this lesson may follow it' },
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof ACCESS;
type WhoOf<A extends Action> = (typeof ACCESS)[A]['who'];

/** What each kind of rule needs to know of the resource, from the read that found it. */
type Facts = {
  anyone: [];
  'signed-in': [];
  self: [resource: { userId: unknown }];
  staff: [];
  teacher: [resource: { viewerTeaches: boolean }];
  follower: [resource: { viewerFollows: boolean }];
};

/**
 * Refuses the viewer unless the table lets it do `action`: 401 (or 503 when its identity provider cannot
 * answer) before 403 (docs/contract.md, Errors). Answers the signed-in user (null for an anonymous reader).
 */
export function assertAccess<A extends Action>(
  viewer: Viewer,
  action: A,
  ...facts: Facts[WhoOf<A>]
): WhoOf<A> extends 'anyone' ? User | null : User {
  const rule: Rule = ACCESS[action];
  if (rule.who === 'anyone') return allowAnonymous(viewer) as never;
  const user = requireUser(viewer);
  const [resource] = facts as [Record<string, unknown>?];
  const allowed =
    rule.who === 'signed-in' ||
    (rule.who === 'self' && String(resource?.userId) === String(user.id)) ||
    (rule.who === 'staff' && user.role === 'staff') ||
    (rule.who === 'teacher' && resource?.viewerTeaches === true) ||
    (rule.who === 'follower' && resource?.viewerFollows === true);
  if (!allowed) throw forbidden('refusal' in rule ? rule.refusal : undefined);
  return user;
}
