import { randomBytes } from 'node:crypto';

/** A new uid for a record made here (an activity, a session): 22 URL-safe base64 characters, like the lessons client's. */
export const newUid = () => randomBytes(16).toString('base64url');
