import type { Tx } from '../../db/transaction.ts';
import { Prisma } from '../../generated/prisma/client.ts';

export const PUBLISH_CUSTOMIZED_LESSON = 'Publish Customized Lesson';
export const COMPLETE_CUSTOMIZED_LESSON = 'Complete Customized Lesson';

// Each grant is one INSERT ... ON CONFLICT statement on the unique names and (user, record) pairs, so any
// number of concurrent calls leave exactly one row of each (a find-then-create would race). `DO UPDATE`
// rather than `DO NOTHING` on the named record so that RETURNING always yields its id.

const tables = {
  milestone: { named: Prisma.raw('milestones'), owned: Prisma.raw('user_milestones'), key: Prisma.raw('milestone_id') },
  objective: { named: Prisma.raw('objectives'), owned: Prisma.raw('user_objectives'), key: Prisma.raw('objective_id') },
};

/** The user has the milestone or objective named `name` (created, with the record itself, when missing). */
async function grant(tx: Tx, kind: keyof typeof tables, userId: number, name: string): Promise<void> {
  const { named, owned, key } = tables[kind];
  await tx.$executeRaw`
    WITH record AS (
      INSERT INTO ${named} (name) VALUES (${name})
      ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
      RETURNING id
    )
    INSERT INTO ${owned} (user_id, ${key})
    SELECT ${userId}, id FROM record
    ON CONFLICT (user_id, ${key}) DO NOTHING`;
}

export const grantMilestone = (tx: Tx, userId: number, name: string) => grant(tx, 'milestone', userId, name);
export const grantObjective = (tx: Tx, userId: number, name: string) => grant(tx, 'objective', userId, name);
