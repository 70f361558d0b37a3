import { newToken } from '../auth/tokens.ts';
import type { Db } from '../db/client.ts';
import { inTransaction } from '../db/transaction.ts';
import { importData } from '../import/import-data.ts';

export const DEMO_CLASSROOM_ACTIVITY_ID = 100;

/** A small classroom with a live lesson, in the import format (so it takes the import's one path). */
export function demoData(teacherToken: string, staffToken: string) {
  return {
    users: [
      { id: 1, name: 'Ada Park', email: 'ada@example.org', role: 'teacher', token: teacherToken },
      { id: 2, name: 'Ben Ortiz', role: 'student' },
      { id: 3, name: 'Chloe Kim', role: 'student' },
      { id: 4, name: 'Dev Patel', role: 'student' },
      { id: 5, name: 'Sam Staff', role: 'staff', token: staffToken },
    ],
    classrooms: [{ id: 1, name: 'Period 1', visible: true, teachers: [{ userId: 1, role: 'owner' }] }],
    units: [{ id: 1, name: 'Sentence structure' }],
    classifications: [{ id: 6, key: 'lessons', name: 'Quill Lessons' }],
    activities: [
      {
        id: 10,
        uid: '-KsL6d9-ij4oM7qMUZFm',
        name: 'Parallel Structure',
        description: 'Build sentences whose parts match.',
        flags: ['production'],
        data: { questions: [{ key: 'q1', questionType: 'lessons-slide' }] },
        supportingInfo: 'https://example.org/lesson-plans/parallel-structure.pdf',
        followUpActivityId: 11,
        classificationId: 6,
      },
      {
        id: 11,
        uid: '-KsL7Zr2m8Qp0bYwX3aA',
        name: 'Parallel Structure Practice',
        description: 'Independent practice.',
        flags: ['production'],
        data: {},
        classificationId: 6,
      },
      {
        id: 12,
        uid: '-KtQ2v9e-Wd1pFz8kLmN',
        name: 'Compound Subjects',
        description: 'A lesson in beta.',
        flags: ['beta'],
        data: {},
        classificationId: 6,
      },
    ],
    concepts: [
      { id: 1, uid: 'X37oyfiNxSphA34npOb-Ig', name: 'Parallel Structure' },
      { id: 2, uid: 'tLZTeV0gpGJ1fJnxX1vIPQ', name: 'Compound Subjects' },
    ],
    classroomActivities: [
      { id: DEMO_CLASSROOM_ACTIVITY_ID, classroomId: 1, activityId: 10, unitId: 1, assignedStudentIds: [2, 3, 4], pinned: true },
    ],
    activitySessions: [
      { id: 1000, uid: 'CzdnkJa649c3eZ-Ag8udAQ', classroomActivityId: 100, userId: 2, state: 'started' },
      { id: 1001, uid: 'Lm2w1sJp0kqD0G7Xc9nR4g', classroomActivityId: 100, userId: 3, state: 'started' },
      { id: 1002, uid: 'Qv8s3Xb1Yt6mZr0Wq2Ee5A', classroomActivityId: 100, userId: 4, state: 'unstarted' },
    ],
  };
}

// Any constant other than the migration lock's (src/db/migrate.ts): instances starting at once on an empty
// database take it in turn, so the first loads the demo data and the others then find its users.
const DEMO_DATA_LOCK_KEY = 72_707_370;

/** On a database with no users at all, loads the demo data and returns the tokens to print. */
export async function seedDemoData(db: Db): Promise<{ teacherToken: string; staffToken: string; classroomActivityId: number } | null> {
  const teacherToken = newToken();
  const staffToken = newToken();
  const loaded = await inTransaction(db, async (tx) => {
    // The check and the load under one lock, held until commit: a second instance waits here, and its
    // count (a new snapshot, read committed) sees the users the first committed.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${DEMO_DATA_LOCK_KEY})`;
    if ((await tx.user.count()) > 0) return false;
    await importData(tx, demoData(teacherToken, staffToken));
    return true;
  });
  return loaded ? { teacherToken, staffToken, classroomActivityId: DEMO_CLASSROOM_ACTIVITY_ID } : null;
}
