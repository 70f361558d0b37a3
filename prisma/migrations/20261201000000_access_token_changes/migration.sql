-- Every instance remembers the tokens it verified a moment ago (src/auth/token-cache.ts). Whatever changes
-- or removes a token or its user (token:revoke, an import, an operator's own SQL, a user deleted), the
-- database says so on the channel `access_token_changes`, in the writing transaction: delivered to every
-- instance's listener at commit, never for a rollback. Inserts need no word: only tokens found valid are
-- remembered.

CREATE FUNCTION "notify_access_token_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('access_token_changes', '*');
  ELSIF TG_TABLE_NAME = 'access_tokens' THEN
    PERFORM pg_notify('access_token_changes', 'token:' || OLD.token_hash);
  ELSE
    PERFORM pg_notify('access_token_changes', 'user:' || OLD.id);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "access_tokens_changed" AFTER UPDATE OR DELETE ON "access_tokens"
  FOR EACH ROW EXECUTE FUNCTION "notify_access_token_change"();
CREATE TRIGGER "access_tokens_truncated" AFTER TRUNCATE ON "access_tokens"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_access_token_change"();

CREATE TRIGGER "users_updated" AFTER UPDATE ON "users"
  FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION "notify_access_token_change"();
CREATE TRIGGER "users_deleted" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "notify_access_token_change"();
CREATE TRIGGER "users_truncated" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_access_token_change"();
