import { createHash } from 'node:crypto';
import type { Database } from '../src/db/client.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { importData } from '../src/import/import-data.ts';

// The benchmark's data set, generated deterministically and loaded through importData (the same path as
// `npm run db:import`), so the gateway reads rows shaped exactly as in production.

export type DatasetOptions = {
  activities: number;
  /** Read-only classroom activities, each with `sessions` sessions and their concept results. */
  classroomActivities: number;
  sessions: number;
  /** Fresh (unfinished) classroom activities to prepare per finish_lesson case, keyed by result count. */
  finishLessonPools: Record<number, number>;
};

export type FreshLesson = { classroomActivityId: number; sessionUids: string[] };

export type Dataset = {
  /** The teacher every read is sent as: the user id its JWT names, and its own (gateway) token. */
  teacherId: number;
  teacherToken: string;
  activityIds: number[];
  activityUids: string[];
  readClassroomActivityIds: number[];
  conceptUids: string[];
  /** Result count → classroom activities that no finish_lesson has touched yet. */
  freshLessons: Map<number, FreshLesson[]>;
};

const TEACHER_ID = 1;
const TEACHER_TOKEN = 'bench-teacher-token-0123456789abcdef';
const FIRST_STUDENT_ID = 1_000;
const CLASSROOMS = 10;
const CONCEPTS = 50;
const RESULTS_PER_READ_SESSION = 5;
/** importData runs one upsert per session: chunks keep each transaction well under its 60 s timeout. */
const SESSIONS_PER_CHUNK = 1_500;

const FLAG_SETS = [['production'], ['production', 'beta'], ['beta'], ['alpha', 'beta'], ['archived'], ['private'], []];

/** 22 URL-safe base64 characters, like the real uids, stable across runs. */
const uid = (kind: string, n: number) => createHash('sha256').update(`${kind}:${n}`).digest('base64url').slice(0, 22);

const metadataFor = (questionNumber: number) => ({
  correct: questionNumber % 3 === 0 ? 0 : 1,
  directions: 'Combine the sentences into one.',
  prompt: 'The dog barked. The dog ran.',
  answer: 'The dog barked and ran.',
  attemptNumber: 1,
  questionNumber,
});

function baseRecords(options: DatasetOptions) {
  const activities = Array.from({ length: options.activities }, (_, i) => {
    const id = i + 1;
    return {
      id,
      uid: uid('activity', id),
      name: `Lesson ${id}: parallel structure`,
      description: 'Build sentences whose parts match, then compare answers with the class.',
      flags: FLAG_SETS[i % FLAG_SETS.length]!,
      data: {
        questions: [
          { key: `q${id}a`, type: 'slide' },
          { key: `q${id}b`, type: 'slide' },
        ],
        intro: 'Warm-up',
      },
      supportingInfo: i % 2 === 0 ? `https://example.org/plans/${id}.pdf` : null,
      followUpActivityId: id < options.activities && i % 4 === 0 ? id + 1 : null,
      classificationId: 1,
    };
  });
  return {
    users: [
      { id: TEACHER_ID, name: 'Bench Teacher', email: 'teacher@example.org', role: 'teacher', token: TEACHER_TOKEN },
      ...Array.from({ length: options.sessions }, (_, i) => ({ id: FIRST_STUDENT_ID + i, name: `Student ${i + 1}`, role: 'student' })),
    ],
    classrooms: Array.from({ length: CLASSROOMS }, (_, i) => ({
      id: i + 1,
      name: `Period ${i + 1}`,
      teachers: [{ userId: TEACHER_ID, role: 'owner' }],
    })),
    units: [{ id: 1, name: 'Sentence structure' }],
    classifications: [{ id: 1, key: 'lessons', name: 'Quill Lessons' }],
    activities,
    concepts: Array.from({ length: CONCEPTS }, (_, i) => ({ id: i + 1, uid: uid('concept', i + 1), name: `Concept ${i + 1}` })),
  };
}

type Chunk = { classroomActivities: object[]; activitySessions: object[] };

/** Classroom activities `firstId`… with `sessions` started sessions each, cut into chunks. */
function* lessonChunks(firstId: number, count: number, options: DatasetOptions): Generator<Chunk> {
  const perChunk = Math.max(1, Math.floor(SESSIONS_PER_CHUNK / options.sessions));
  const students = Array.from({ length: options.sessions }, (_, s) => FIRST_STUDENT_ID + s);
  for (let start = 0; start < count; start += perChunk) {
    const chunk: Chunk = { classroomActivities: [], activitySessions: [] };
    for (let id = firstId + start; id < firstId + Math.min(count, start + perChunk); id += 1) {
      chunk.classroomActivities.push({
        id,
        classroomId: (id % CLASSROOMS) + 1,
        activityId: (id % options.activities) + 1,
        unitId: 1,
        assignedStudentIds: students,
        pinned: true,
      });
      students.forEach((userId, s) =>
        chunk.activitySessions.push({
          id: sessionIdOf(id, s, options),
          uid: sessionUid(id, s),
          classroomActivityId: id,
          userId,
          state: 'started',
        }),
      );
    }
    yield chunk;
  }
}

/** A few concept results per session of the read-only lessons, for the nested read to return. */
function conceptResultsOf(lessonIds: number[], options: DatasetOptions) {
  return lessonIds.flatMap((id) =>
    Array.from({ length: options.sessions * RESULTS_PER_READ_SESSION }, (_, k) => {
      const s = Math.floor(k / RESULTS_PER_READ_SESSION);
      const q = (k % RESULTS_PER_READ_SESSION) + 1;
      return {
        activitySessionId: sessionIdOf(id, s, options),
        conceptId: ((s + q) % CONCEPTS) + 1,
        questionType: 'lessons-slide',
        metadata: metadataFor(q),
      };
    }),
  );
}

const sessionIdOf = (classroomActivityId: number, index: number, options: DatasetOptions) => classroomActivityId * options.sessions + index;
const sessionUid = (classroomActivityId: number, index: number) => uid('session', classroomActivityId * 10_000 + index);

/** At most `limit` tasks at a time. */
async function inParallel<T>(items: T[], limit: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

// One at a time: imports take turns on a database (src/import/import-data.ts, IMPORT_LOCK), so more
// would only wait.
const PARALLEL_IMPORTS = 1;
/** A multiple of 4, so that a follow-up (id + 1 of an id ≡ 1 mod 4) is in the same chunk. */
const ACTIVITIES_PER_CHUNK = 500;

/**
 * Writes the data set into an empty, migrated database and says what the cases may use. importData sends
 * a statement per record, in chunks of their own transaction (PARALLEL_IMPORTS at a time). Records with
 * explicit ids tolerate that: the last import, alone, moves every id sequence past all of them. Concept
 * results take their ids from a sequence, so they are imported alone.
 */
export async function loadDataset(
  database: Database,
  options: DatasetOptions,
  progress: (step: string) => void = () => {},
): Promise<Dataset> {
  const load = (data: object) => inTransaction(database.prisma, (tx) => importData(tx, data));
  const { activities, ...base } = baseRecords(options);
  await load(base);
  const activityChunks = Array.from({ length: Math.ceil(activities.length / ACTIVITIES_PER_CHUNK) }, (_, i) =>
    activities.slice(i * ACTIVITIES_PER_CHUNK, (i + 1) * ACTIVITIES_PER_CHUNK),
  );
  await inParallel(activityChunks, PARALLEL_IMPORTS, (chunk) => load({ activities: chunk }));
  progress(`${activities.length} activities`);

  // Read-only lessons first (ids 1…), then the fresh ones, pool by pool.
  const readIds = Array.from({ length: options.classroomActivities }, (_, i) => i + 1);
  const chunks = [...lessonChunks(1, options.classroomActivities, options)];
  const freshLessons = new Map<number, FreshLesson[]>();
  let nextId = options.classroomActivities + 1;
  for (const [results, count] of Object.entries(options.finishLessonPools).map(([r, c]) => [Number(r), c] as const)) {
    chunks.push(...lessonChunks(nextId, count, options));
    const ids = Array.from({ length: count }, (_, i) => nextId + i);
    freshLessons.set(
      results,
      ids.map((id) => ({ classroomActivityId: id, sessionUids: Array.from({ length: options.sessions }, (_, s) => sessionUid(id, s)) })),
    );
    nextId += count;
  }
  await inParallel(chunks, PARALLEL_IMPORTS, load);
  progress(
    `${nextId - 1} classroom activities × ${options.sessions} sessions (${nextId - 1 - options.classroomActivities} of them fresh, for finish_lesson)`,
  );

  await load({ conceptResults: conceptResultsOf(readIds, options) });
  progress(`${options.classroomActivities * options.sessions * RESULTS_PER_READ_SESSION} concept results`);

  return {
    teacherId: TEACHER_ID,
    teacherToken: TEACHER_TOKEN,
    activityIds: activities.map((activity) => activity.id),
    activityUids: activities.map((activity) => activity.uid),
    readClassroomActivityIds: readIds,
    conceptUids: base.concepts.map((concept) => concept.uid),
    freshLessons,
  };
}

/** The legacy finish_lesson body: `results` concept results spread over the lesson's sessions. */
export function finishLessonBody(lesson: FreshLesson, conceptUids: string[], results: number): string {
  const sessions = lesson.sessionUids.length;
  const conceptResults = Array.from({ length: results }, (_, k) => ({
    activity_session_uid: lesson.sessionUids[k % sessions],
    concept_uid: conceptUids[k % conceptUids.length],
    question_type: 'lessons-slide',
    metadata: metadataFor(Math.floor(k / sessions) + 1),
  }));
  return JSON.stringify({ follow_up: false, concept_results: conceptResults });
}
