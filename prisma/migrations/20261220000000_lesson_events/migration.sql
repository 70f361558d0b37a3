-- Live lessons that lose nothing (docs/contract.md, Live lessons): every lesson event is stored by the
-- transaction that makes its change, at the next position of its classroom activity, taken under that
-- row's lock, so positions follow commit order; `lesson_event_position` is the latest one (0: none yet).

-- CreateEnum
CREATE TYPE "lesson_event_kind" AS ENUM ('LAUNCHED', 'LOCKED', 'FINISHED');

-- AlterTable
ALTER TABLE "classroom_activities" ADD COLUMN     "lesson_event_position" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "lesson_events" (
    "id" BIGSERIAL NOT NULL,
    "classroom_activity_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "kind" "lesson_event_kind" NOT NULL,
    "locked" BOOLEAN NOT NULL,
    "pinned" BOOLEAN NOT NULL,
    "completed" BOOLEAN NOT NULL,
    "follow_up_url" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "lesson_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "lesson_events_at_idx" ON "lesson_events"("at");

-- CreateIndex
CREATE UNIQUE INDEX "lesson_events_classroom_activity_id_position_key" ON "lesson_events"("classroom_activity_id", "position");

-- AddForeignKey
ALTER TABLE "lesson_events" ADD CONSTRAINT "lesson_events_classroom_activity_id_fkey" FOREIGN KEY ("classroom_activity_id") REFERENCES "classroom_activities"("id") ON DELETE CASCADE ON UPDATE CASCADE;


