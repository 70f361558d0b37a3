-- CreateEnum
CREATE TYPE "user_role" AS ENUM ('teacher', 'student', 'staff');

-- CreateEnum
CREATE TYPE "classroom_teacher_role" AS ENUM ('owner', 'coteacher');

-- CreateEnum
CREATE TYPE "activity_session_state" AS ENUM ('unstarted', 'started', 'finished');

-- CreateTable
CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "role" "user_role" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "classrooms" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "visible" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "classrooms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "classrooms_teachers" (
    "id" SERIAL NOT NULL,
    "classroom_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "role" "classroom_teacher_role" NOT NULL,

    CONSTRAINT "classrooms_teachers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "units" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "units_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "activity_classifications" (
    "id" SERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "activity_classifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "activities" (
    "id" SERIAL NOT NULL,
    "uid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "flags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "data" JSONB NOT NULL DEFAULT '{}',
    "supporting_info" TEXT,
    "follow_up_activity_id" INTEGER,
    "activity_classification_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "classroom_activities" (
    "id" SERIAL NOT NULL,
    "classroom_id" INTEGER NOT NULL,
    "activity_id" INTEGER NOT NULL,
    "unit_id" INTEGER,
    "due_date" TIMESTAMPTZ(3),
    "assigned_student_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "assign_on_join" BOOLEAN NOT NULL DEFAULT false,
    "visible" BOOLEAN NOT NULL DEFAULT true,
    "locked" BOOLEAN NOT NULL DEFAULT false,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "completed" BOOLEAN NOT NULL DEFAULT false,
    "edition_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "classroom_activities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "activity_sessions" (
    "id" SERIAL NOT NULL,
    "uid" TEXT NOT NULL,
    "classroom_activity_id" INTEGER NOT NULL,
    "activity_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "state" "activity_session_state" NOT NULL DEFAULT 'unstarted',
    "percentage" DOUBLE PRECISION,
    "completed_at" TIMESTAMPTZ(3),
    "is_final_score" BOOLEAN NOT NULL DEFAULT false,
    "visible" BOOLEAN NOT NULL DEFAULT true,
    "data" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "concepts" (
    "id" SERIAL NOT NULL,
    "uid" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "concepts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "concept_results" (
    "id" SERIAL NOT NULL,
    "activity_session_id" INTEGER NOT NULL,
    "concept_id" INTEGER NOT NULL,
    "question_type" TEXT NOT NULL,
    "metadata" JSONB NOT NULL,
    "fingerprint" TEXT NOT NULL,

    CONSTRAINT "concept_results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "objectives" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "objectives_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "milestones" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "milestones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_objectives" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "objective_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_objectives_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_milestones" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "milestone_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_milestones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "access_tokens" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "access_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "classrooms_teachers_user_id_idx" ON "classrooms_teachers"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "classrooms_teachers_classroom_id_user_id_key" ON "classrooms_teachers"("classroom_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "activity_classifications_key_key" ON "activity_classifications"("key");

-- CreateIndex
CREATE UNIQUE INDEX "activities_uid_key" ON "activities"("uid");

-- CreateIndex
CREATE INDEX "activities_flags_idx" ON "activities" USING GIN ("flags");

-- CreateIndex
CREATE INDEX "activities_follow_up_activity_id_idx" ON "activities"("follow_up_activity_id");

-- CreateIndex
CREATE INDEX "activities_activity_classification_id_idx" ON "activities"("activity_classification_id");

-- CreateIndex
CREATE INDEX "classroom_activities_classroom_id_activity_id_unit_id_idx" ON "classroom_activities"("classroom_id", "activity_id", "unit_id");

-- CreateIndex
CREATE INDEX "classroom_activities_activity_id_idx" ON "classroom_activities"("activity_id");

-- CreateIndex
CREATE INDEX "classroom_activities_unit_id_idx" ON "classroom_activities"("unit_id");

-- CreateIndex
CREATE UNIQUE INDEX "activity_sessions_uid_key" ON "activity_sessions"("uid");

-- CreateIndex
CREATE INDEX "activity_sessions_classroom_activity_id_idx" ON "activity_sessions"("classroom_activity_id");

-- CreateIndex
CREATE INDEX "activity_sessions_activity_id_idx" ON "activity_sessions"("activity_id");

-- CreateIndex
CREATE INDEX "activity_sessions_user_id_idx" ON "activity_sessions"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "concepts_uid_key" ON "concepts"("uid");

-- CreateIndex
CREATE INDEX "concept_results_concept_id_idx" ON "concept_results"("concept_id");

-- CreateIndex
CREATE UNIQUE INDEX "concept_results_activity_session_id_fingerprint_key" ON "concept_results"("activity_session_id", "fingerprint");

-- CreateIndex
CREATE UNIQUE INDEX "objectives_name_key" ON "objectives"("name");

-- CreateIndex
CREATE UNIQUE INDEX "milestones_name_key" ON "milestones"("name");

-- CreateIndex
CREATE INDEX "user_objectives_objective_id_idx" ON "user_objectives"("objective_id");

-- CreateIndex
CREATE UNIQUE INDEX "user_objectives_user_id_objective_id_key" ON "user_objectives"("user_id", "objective_id");

-- CreateIndex
CREATE INDEX "user_milestones_milestone_id_idx" ON "user_milestones"("milestone_id");

-- CreateIndex
CREATE UNIQUE INDEX "user_milestones_user_id_milestone_id_key" ON "user_milestones"("user_id", "milestone_id");

-- CreateIndex
CREATE UNIQUE INDEX "access_tokens_token_hash_key" ON "access_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "access_tokens_user_id_idx" ON "access_tokens"("user_id");

-- AddForeignKey
ALTER TABLE "classrooms_teachers" ADD CONSTRAINT "classrooms_teachers_classroom_id_fkey" FOREIGN KEY ("classroom_id") REFERENCES "classrooms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "classrooms_teachers" ADD CONSTRAINT "classrooms_teachers_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activities" ADD CONSTRAINT "activities_follow_up_activity_id_fkey" FOREIGN KEY ("follow_up_activity_id") REFERENCES "activities"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activities" ADD CONSTRAINT "activities_activity_classification_id_fkey" FOREIGN KEY ("activity_classification_id") REFERENCES "activity_classifications"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "classroom_activities" ADD CONSTRAINT "classroom_activities_classroom_id_fkey" FOREIGN KEY ("classroom_id") REFERENCES "classrooms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "classroom_activities" ADD CONSTRAINT "classroom_activities_activity_id_fkey" FOREIGN KEY ("activity_id") REFERENCES "activities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "classroom_activities" ADD CONSTRAINT "classroom_activities_unit_id_fkey" FOREIGN KEY ("unit_id") REFERENCES "units"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activity_sessions" ADD CONSTRAINT "activity_sessions_classroom_activity_id_fkey" FOREIGN KEY ("classroom_activity_id") REFERENCES "classroom_activities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activity_sessions" ADD CONSTRAINT "activity_sessions_activity_id_fkey" FOREIGN KEY ("activity_id") REFERENCES "activities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activity_sessions" ADD CONSTRAINT "activity_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "concept_results" ADD CONSTRAINT "concept_results_activity_session_id_fkey" FOREIGN KEY ("activity_session_id") REFERENCES "activity_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "concept_results" ADD CONSTRAINT "concept_results_concept_id_fkey" FOREIGN KEY ("concept_id") REFERENCES "concepts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_objectives" ADD CONSTRAINT "user_objectives_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_objectives" ADD CONSTRAINT "user_objectives_objective_id_fkey" FOREIGN KEY ("objective_id") REFERENCES "objectives"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_milestones" ADD CONSTRAINT "user_milestones_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_milestones" ADD CONSTRAINT "user_milestones_milestone_id_fkey" FOREIGN KEY ("milestone_id") REFERENCES "milestones"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
