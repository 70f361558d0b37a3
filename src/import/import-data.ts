import type { z } from 'zod';
import { hashToken, tokenPrefix } from '../auth/tokens.ts';
import type { Tx } from '../db/transaction.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { conceptResultFingerprint } from '../modules/classroom-activities/concept-results.ts';
import { formatPath } from '../core/validation.ts';
import { importFile, type ImportFile } from './format.ts';

// Loads the import format (docs/contract.md, Running it) inside the caller's transaction: everything is
// checked before the first write, then each record is upserted by id (so a second run changes nothing),
// and the id sequences are moved past the imported ids, never backwards.

export class ImportError extends Error {}

export type ImportCounts = Record<keyof ImportFile, number>;

/** Imports take turns on one database: each locks the id tables before it commits, so two at once would deadlock. */
const IMPORT_LOCK = "SELECT pg_advisory_xact_lock(hashtext('lessons-gateway: db:import'))";

export async function importData(tx: Tx, input: unknown): Promise<ImportCounts> {
  const file = parse(input);
  await tx.$executeRawUnsafe(IMPORT_LOCK);
  await checkUniqueness(tx, file);
  await checkReferences(tx, file);
  await writeUsers(tx, file);
  await writeClassrooms(tx, file);
  for (const unit of file.units) await tx.unit.upsert({ where: { id: unit.id }, create: unit, update: unit });
  for (const classification of file.classifications)
    await tx.activityClassification.upsert({ where: { id: classification.id }, create: classification, update: classification });
  await writeActivities(tx, file);
  for (const concept of file.concepts) await tx.concept.upsert({ where: { id: concept.id }, create: concept, update: concept });
  for (const classroomActivity of file.classroomActivities) {
    const data = {
      ...classroomActivity,
      unitId: classroomActivity.unitId ?? null,
      editionId: classroomActivity.editionId ?? null,
      dueDate: classroomActivity.dueDate ?? null,
    };
    await tx.classroomActivity.upsert({ where: { id: classroomActivity.id }, create: data, update: data });
  }
  await writeSessions(tx, file);
  if (file.conceptResults.length > 0) {
    await tx.conceptResult.createMany({
      data: file.conceptResults.map((result) => ({
        ...result,
        metadata: result.metadata as Prisma.InputJsonObject,
        fingerprint: conceptResultFingerprint(result.conceptId, result.questionType, result.metadata),
      })),
      skipDuplicates: true,
    });
  }
  await moveSequencesPastIds(tx);
  return Object.fromEntries(Object.entries(file).map(([list, records]) => [list, records.length])) as ImportCounts;
}

/** Users, and the access token each may carry (a revoked one is revived). */
async function writeUsers(tx: Tx, file: ImportFile): Promise<void> {
  for (const { token, ...user } of file.users) {
    await tx.user.upsert({
      where: { id: user.id },
      create: { ...user, email: user.email ?? null },
      update: { ...user, email: user.email ?? null },
    });
    if (token) {
      const tokenHash = hashToken(token);
      await tx.accessToken.upsert({
        where: { tokenHash },
        create: { tokenHash, tokenPrefix: tokenPrefix(token), userId: user.id },
        update: { userId: user.id, revokedAt: null },
      });
    }
  }
}

/** Classrooms, and exactly the teachers the file lists for each. */
async function writeClassrooms(tx: Tx, file: ImportFile): Promise<void> {
  for (const { teachers, ...classroom } of file.classrooms) {
    await tx.classroom.upsert({ where: { id: classroom.id }, create: classroom, update: classroom });
    await tx.classroomTeacher.deleteMany({ where: { classroomId: classroom.id, userId: { notIn: teachers.map((t) => t.userId) } } });
    for (const teacher of teachers) {
      const key = { classroomId: classroom.id, userId: teacher.userId };
      await tx.classroomTeacher.upsert({
        where: { classroomId_userId: key },
        create: { ...key, role: teacher.role },
        update: { role: teacher.role },
      });
    }
  }
}

/** Follow-ups may point at activities later in the file: they are linked once every activity exists. */
async function writeActivities(tx: Tx, file: ImportFile): Promise<void> {
  for (const { followUpActivityId: _later, ...activity } of file.activities) {
    const data = {
      ...activity,
      data: activity.data as Prisma.InputJsonObject,
      supportingInfo: activity.supportingInfo ?? null,
      classificationId: activity.classificationId ?? null,
    };
    await tx.activity.upsert({ where: { id: activity.id }, create: data, update: data });
  }
  for (const activity of file.activities)
    await tx.activity.update({ where: { id: activity.id }, data: { followUpActivityId: activity.followUpActivityId ?? null } });
}

/** Sessions carry their classroom activity's activity id, read from the file or else the database. */
async function writeSessions(tx: Tx, file: ImportFile): Promise<void> {
  const activityIdOf = new Map(file.classroomActivities.map((ca) => [ca.id, ca.activityId]));
  const missingActivityIds = file.activitySessions
    .filter((s) => !activityIdOf.has(s.classroomActivityId))
    .map((s) => s.classroomActivityId);
  for (const row of await tx.classroomActivity.findMany({
    where: { id: { in: missingActivityIds } },
    select: { id: true, activityId: true },
  }))
    activityIdOf.set(row.id, row.activityId);
  for (const session of file.activitySessions) {
    const data = {
      ...session,
      activityId: activityIdOf.get(session.classroomActivityId)!,
      data: session.data as Prisma.InputJsonObject,
      percentage: session.percentage ?? null,
      completedAt: session.completedAt ?? null,
    };
    await tx.activitySession.upsert({ where: { id: session.id }, create: data, update: data });
  }
}

function parse(input: unknown): ImportFile {
  const parsed = importFile.safeParse(input, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw new ImportError(
    parsed.error.issues
      .slice(0, 10)
      .map((issue) => describeIssue(input, issue))
      .join('\n'),
  );
}

/** `activities[3] (id 12): uid: is required` */
function describeIssue(input: unknown, issue: z.core.$ZodIssue): string {
  const [list, index, ...field] = issue.path;
  if (typeof index !== 'number') return `${formatPath(issue.path) || 'file'}: ${issue.message}`;
  const record = (input as Record<string, { id?: unknown }[]>)[String(list)]?.[index];
  const recordId = record && typeof record === 'object' && 'id' in record ? ` (id ${JSON.stringify(record.id)})` : '';
  return `${String(list)}[${index}]${recordId}: ${formatPath(field) || 'record'}: ${issue.message}`;
}

type Reference = { list: keyof ImportFile; field: string; target: keyof ImportFile; table: string };

const references: Reference[] = [
  { list: 'activities', field: 'followUpActivityId', target: 'activities', table: 'activities' },
  { list: 'activities', field: 'classificationId', target: 'classifications', table: 'activity_classifications' },
  { list: 'classroomActivities', field: 'classroomId', target: 'classrooms', table: 'classrooms' },
  { list: 'classroomActivities', field: 'activityId', target: 'activities', table: 'activities' },
  { list: 'classroomActivities', field: 'unitId', target: 'units', table: 'units' },
  { list: 'activitySessions', field: 'classroomActivityId', target: 'classroomActivities', table: 'classroom_activities' },
  { list: 'activitySessions', field: 'userId', target: 'users', table: 'users' },
  { list: 'conceptResults', field: 'activitySessionId', target: 'activitySessions', table: 'activity_sessions' },
  { list: 'conceptResults', field: 'conceptId', target: 'concepts', table: 'concepts' },
];

/** Every reference names a record of the file or of the database; else the first few are reported. */
async function checkReferences(tx: Tx, file: ImportFile): Promise<void> {
  const problems: string[] = [];
  const teacherRefs = file.classrooms.flatMap((classroom, index) =>
    classroom.teachers.map((teacher, t) => ({
      where: `classrooms[${index}] (id ${classroom.id}): teachers[${t}].userId`,
      id: teacher.userId,
    })),
  );
  const checks = [
    ...references.map((ref) => ({
      ref,
      uses: (file[ref.list] as Record<string, unknown>[]).flatMap((record, index) => {
        const id = record[ref.field];
        const recordId = 'id' in record ? ` (id ${String(record.id)})` : '';
        return typeof id === 'number' ? [{ where: `${ref.list}[${index}]${recordId}: ${ref.field}`, id }] : [];
      }),
    })),
    { ref: { target: 'users', table: 'users' } as Reference, uses: teacherRefs },
  ];
  for (const { ref, uses } of checks) {
    const inFile = new Set((file[ref.target] as { id: number }[]).map((record) => record.id));
    const outside = [...new Set(uses.map((use) => use.id).filter((id) => !inFile.has(id)))];
    if (outside.length === 0) continue;
    const found = await tx.$queryRawUnsafe<{ id: number }[]>(`SELECT id FROM "${ref.table}" WHERE id = ANY($1::int[])`, outside);
    const known = new Set([...inFile, ...found.map((row) => row.id)]);
    for (const use of uses) if (!known.has(use.id)) problems.push(`${use.where}: no ${ref.target} record has id ${use.id}`);
  }
  if (problems.length > 0) throw new ImportError(problems.slice(0, 10).join('\n'));
}

type UniqueKey = { list: 'activities' | 'concepts' | 'activitySessions' | 'classifications'; field: 'uid' | 'key'; table: string };

const uniqueKeys: UniqueKey[] = [
  { list: 'activities', field: 'uid', table: 'activities' },
  { list: 'concepts', field: 'uid', table: 'concepts' },
  { list: 'activitySessions', field: 'uid', table: 'activity_sessions' },
  { list: 'classifications', field: 'key', table: 'activity_classifications' },
];

/**
 * A list names each id once, and no two records share a unique key (uid, key): neither two records of
 * the file nor a record of the file and another record already in the database.
 */
async function checkUniqueness(tx: Tx, file: ImportFile): Promise<void> {
  const problems: string[] = [];
  const label = (list: string, index: number, id: number) => `${list}[${index}] (id ${id})`;
  for (const [list, records] of Object.entries(file) as [string, { id?: number }[]][]) {
    const firstIndex = new Map<number, number>();
    records.forEach((record, index) => {
      if (record.id === undefined) return;
      const first = firstIndex.get(record.id);
      if (first === undefined) firstIndex.set(record.id, index);
      else problems.push(`${label(list, index, record.id)}: id: ${record.id} is also the id of ${list}[${first}]`);
    });
  }
  for (const { list, field, table } of uniqueKeys) {
    const records = file[list] as ({ id: number } & Record<string, unknown>)[];
    const firstIndex = new Map<string, number>();
    records.forEach((record, index) => {
      const value = String(record[field]);
      const first = firstIndex.get(value);
      if (first === undefined) firstIndex.set(value, index);
      else if (records[first]!.id !== record.id)
        problems.push(
          `${label(list, index, record.id)}: ${field}: ${JSON.stringify(value)} is also the ${field} of ${label(list, first, records[first]!.id)}`,
        );
    });
    if (records.length === 0) continue;
    const taken = await tx.$queryRawUnsafe<{ id: number; value: string }[]>(
      `SELECT id, "${field}" AS value FROM "${table}" WHERE "${field}" = ANY($1::text[])`,
      [...firstIndex.keys()],
    );
    for (const row of taken) {
      const index = firstIndex.get(row.value)!;
      if (records[index]!.id !== row.id)
        problems.push(
          `${label(list, index, records[index]!.id)}: ${field}: ${JSON.stringify(row.value)} is already the ${field} of the ${list} record with id ${row.id}`,
        );
    }
  }
  if (problems.length > 0) throw new ImportError(problems.slice(0, 10).join('\n'));
}

const sequencedTables = [
  'users',
  'classrooms',
  'classrooms_teachers',
  'units',
  'activity_classifications',
  'activities',
  'concepts',
  'classroom_activities',
  'activity_sessions',
  'concept_results',
  'access_tokens',
];

/**
 * Records created later get ids above the imported ones, and a sequence only ever moves forward: beside
 * live traffic, another writer may have taken ids this transaction cannot see. The tables are locked
 * against writes from here to the commit (a writer in flight finishes first, and its rows are then seen);
 * reads go on. Each sequence is moved to MAX(id) + 1 only when that is past its own next value.
 */
async function moveSequencesPastIds(tx: Tx): Promise<void> {
  await tx.$executeRawUnsafe(`LOCK TABLE ${sequencedTables.map((table) => `"${table}"`).join(', ')} IN EXCLUSIVE MODE`);
  await tx.$executeRawUnsafe(`
    DO $$
    DECLARE
      t text;
      seq text;
      top bigint;
      last bigint;
      called boolean;
    BEGIN
      FOREACH t IN ARRAY ARRAY[${sequencedTables.map((table) => `'${table}'`).join(', ')}] LOOP
        seq := pg_get_serial_sequence(quote_ident(t), 'id');
        EXECUTE format('SELECT COALESCE(MAX(id), 0) + 1 FROM %I', t) INTO top;
        EXECUTE format('SELECT last_value, is_called FROM %s', seq) INTO last, called;
        IF top > (CASE WHEN called THEN last + 1 ELSE last END) THEN
          PERFORM setval(seq, top, false);
        END IF;
      END LOOP;
    END $$`);
}
