import { z } from 'zod';
import { isStorableText, UNSTORABLE } from '../core/json.ts';
import { jsonObject } from '../core/validation.ts';

// The import file format (docs/contract.md, Running it). Every list is optional; ids are the records' own.

const id = z.number().int().min(1).max(2_147_483_647);
// Every string is one PostgreSQL can store (no NUL): refused here, naming the record and field, not by the driver.
const string = () => z.string().refine(isStorableText, UNSTORABLE);
const text = string().min(1);
// Checked as a client's JSON is: at most 32 levels deep, strings PostgreSQL can store (src/core/json.ts).
const json = jsonObject;
const date = z.iso.datetime({ offset: true }).transform((value) => new Date(value));
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

export const importFile = z.object({
  users: z
    .array(
      z.object({
        id,
        name: text,
        email: nullable(string()),
        role: z.enum(['teacher', 'student', 'staff']),
        token: nullable(string().min(16, 'must be at least 16 characters')),
      }),
    )
    .default([]),
  classrooms: z
    .array(
      z
        .object({
          id,
          name: text,
          visible: z.boolean().default(true),
          teachers: z.array(z.object({ userId: id, role: z.enum(['owner', 'coteacher']) })).default([]),
        })
        .refine((classroom) => classroom.teachers.length === 0 || classroom.teachers.filter((t) => t.role === 'owner').length === 1, {
          message: 'must have exactly one owner among its teachers',
          path: ['teachers'],
        }),
    )
    .default([]),
  units: z.array(z.object({ id, name: text })).default([]),
  classifications: z.array(z.object({ id, key: text, name: text })).default([]),
  activities: z
    .array(
      z.object({
        id,
        uid: text,
        name: text,
        description: string().default(''),
        flags: z.array(string()).default([]),
        data: json.default({}),
        supportingInfo: nullable(string()),
        followUpActivityId: nullable(id),
        classificationId: nullable(id),
      }),
    )
    .default([]),
  concepts: z.array(z.object({ id, uid: text, name: text })).default([]),
  classroomActivities: z
    .array(
      z.object({
        id,
        classroomId: id,
        activityId: id,
        unitId: nullable(id),
        assignedStudentIds: z.array(z.number().int().min(-2_147_483_648).max(2_147_483_647)).default([]),
        assignOnJoin: z.boolean().default(false),
        visible: z.boolean().default(true),
        locked: z.boolean().default(false),
        pinned: z.boolean().default(false),
        completed: z.boolean().default(false),
        editionId: nullable(string()),
        dueDate: nullable(date),
      }),
    )
    .default([]),
  activitySessions: z
    .array(
      z.object({
        id,
        uid: text,
        classroomActivityId: id,
        userId: id,
        state: z.enum(['unstarted', 'started', 'finished']).default('unstarted'),
        visible: z.boolean().default(true),
        data: json.default({}),
        percentage: nullable(z.number().min(0).max(1)),
        completedAt: nullable(date),
        isFinalScore: z.boolean().default(false),
      }),
    )
    .default([]),
  conceptResults: z
    .array(
      z.object({
        activitySessionId: id,
        conceptId: id,
        questionType: text,
        metadata: json,
      }),
    )
    .default([]),
});

export type ImportFile = z.output<typeof importFile>;
