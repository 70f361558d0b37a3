-- Public reads' HTTP tags come from the public catalogue's version (src/http/catalogue-version.ts). Whoever
-- writes activities or classifications (the app, the import, an operator's SQL), the version moves and is
-- announced on `public_catalogue_changes` at commit, to every instance; never for a rollback.

-- CreateTable
CREATE TABLE "public_catalogue_version" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL,

    CONSTRAINT "public_catalogue_version_pkey" PRIMARY KEY ("id")
);

INSERT INTO "public_catalogue_version" ("id", "version") VALUES (1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint);

-- Once per transaction (a transaction-local setting remembers it; a rolled-back savepoint forgets both). The
-- row lock makes writers commit one after another, so versions grow in commit order; a version is never
-- below the clock (microseconds since 1970), so that a database restored from a backup, or made anew, does
-- not hand out again a version it had given to other data.
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
