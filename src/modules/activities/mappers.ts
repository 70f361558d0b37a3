import type { Activity, ActivityClassification } from '../../generated/prisma/client.ts';

// The values the activity types are resolved from (codegen.ts `mappers`).

/** An activity; with its classification when the read brought it along (read.ts), for that field to answer without a statement. */
export type ActivityMapper = Activity & { classification?: ActivityClassification | null };

export type ActivityConnectionMapper = {
  nodes: Activity[];
  hasNextPage: boolean;
  /** Counted only when a client asks for totalCount. */
  totalCount: () => Promise<number>;
};

/** A row of uids_and_flags: the first flag is picked by the query (thousands of rows, no array to parse). */
export type ActivityFlagMapper = { uid: string; flag: string | null };
