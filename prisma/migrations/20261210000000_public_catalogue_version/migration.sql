-- Public reads carry HTTP tags made from the public catalogue's version (src/http/catalogue-version.ts,
-- docs/operations.md, HTTP caching). Whatever writes activities or their classifications (the app, the
-- import command, an operator's own SQL, a TRUNCATE), the transaction's first such statement moves the
-- version and says so on the channel `public_catalogue_changes`: delivered to every instance's listener at
-- commit, never for a rollback. The row lock serialises the writers, so versions grow in commit order; a
-- version is also never below the time it was taken (microseconds since 1970), so that a database restored
-- from a backup, or made anew, never hands out again a version it had already given to other data.

-- CreateTable
CREATE TABLE "public_catalogue_version" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL,

    CONSTRAINT "public_catalogue_version_pkey" PRIMARY KEY ("id")
);

INSERT INTO "public_catalogue_version" ("id", "version") VALUES (1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint);

-- Once per transaction (a transaction-local setting remembers it; a rolled-back savepoint forgets both).
CREATE FUNCTION "move_public_catalogue_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved bigint;
BEGIN
  IF current_setting('lessons.public_catalogue_moved', true) IS DISTINCT FROM 'on' THEN
    UPDATE "public_catalogue_version"
      SET "version" = greatest("version" + 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)
      WHERE "id" = 1
      RETURNING "version" INTO moved;
    PERFORM set_config('lessons.public_catalogue_moved', 'on', true);
    PERFORM pg_notify('public_catalogue_changes', coalesce(moved::text, ''));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "activities_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "activities"
  FOR EACH STATEMENT EXECUTE FUNCTION "move_public_catalogue_version"();
CREATE TRIGGER "activity_classifications_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "activity_classifications"
  FOR EACH STATEMENT EXECUTE FUNCTION "move_public_catalogue_version"();
