CREATE TABLE "analytics_days" (
	"app_id" uuid NOT NULL,
	"day" date NOT NULL,
	"subjects" integer NOT NULL,
	CONSTRAINT "analytics_days_pkey" PRIMARY KEY("app_id","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_run_days" (
	"app_id" uuid NOT NULL,
	"day" date NOT NULL,
	"tool_id" uuid,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"is_demo" boolean NOT NULL,
	"runs" integer NOT NULL,
	"prompt_tokens" bigint NOT NULL,
	"completion_tokens" bigint NOT NULL,
	"cost_usd" numeric(18, 6) NOT NULL,
	"unpriced_runs" integer NOT NULL,
	CONSTRAINT "analytics_run_days_key" UNIQUE NULLS NOT DISTINCT("app_id","day","tool_id","kind","status","is_demo")
);
--> statement-breakpoint
CREATE TABLE "analytics_subject_days" (
	"app_id" uuid NOT NULL,
	"day" date NOT NULL,
	"subject_hash" bigint NOT NULL,
	"runs" integer NOT NULL,
	CONSTRAINT "analytics_subject_days_pkey" PRIMARY KEY("app_id","day","subject_hash")
);
--> statement-breakpoint
CREATE TABLE "analytics_subjects" (
	"app_id" uuid NOT NULL,
	"subject_hash" bigint NOT NULL,
	"last_day" date NOT NULL,
	CONSTRAINT "analytics_subjects_pkey" PRIMARY KEY("app_id","subject_hash")
);
--> statement-breakpoint
ALTER TABLE "analytics_days" ADD CONSTRAINT "analytics_days_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_run_days" ADD CONSTRAINT "analytics_run_days_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_subject_days" ADD CONSTRAINT "analytics_subject_days_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_subjects" ADD CONSTRAINT "analytics_subjects_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_subjects_last_day_idx" ON "analytics_subjects" USING btree ("app_id","last_day");
--> statement-breakpoint
-- Hand-written below (drizzle has no functions or triggers): the analytics counters follow
-- tool_runs in the same transaction as every change of a run (db/schema/analytics.ts). Writes to
-- tool_runs wait until the counters are filled from the runs already there, so none is missed or
-- counted twice.
LOCK TABLE "tool_runs" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
-- One changed run: sign 1 = counted in, -1 = counted out.
CREATE TYPE "analytics_change" AS (sign integer, app_id uuid, created_at timestamptz, tool_id uuid, kind text,
  status text, is_demo boolean, subject text, prompt_tokens integer, completion_tokens integer, cost_usd numeric,
  cost_known boolean);--> statement-breakpoint
-- Applies a statement's changed runs to the counters: `changes` to the runs' counters, `movers`
-- (the changes that can move a subject: a run added, removed, or given another day, subject or
-- kind) to the subjects' ones; a run's end moves only the first. Every upsert goes in key order, so
-- two statements never wait on each other's rows in a cycle. A counter that falls to zero stays (it
-- is read as nothing); a negative change whose counter is already gone (its app's deletion
-- cascaded first) is dropped rather than written below zero.
CREATE FUNCTION analytics_apply(changes analytics_change[], movers analytics_change[]) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  IF cardinality(changes) > 0 THEN
    -- Runs, tokens and cost.
    WITH d AS (
      SELECT app_id, (created_at AT TIME ZONE 'UTC')::date AS day, tool_id, kind, status, is_demo,
        sum(sign)::int AS runs,
        sum(sign * coalesce(prompt_tokens, 0))::bigint AS prompt_tokens,
        sum(sign * coalesce(completion_tokens, 0))::bigint AS completion_tokens,
        sum(sign * cost_usd) AS cost_usd,
        coalesce(sum(sign) FILTER (WHERE NOT cost_known), 0)::int AS unpriced_runs
      FROM unnest(changes) GROUP BY 1, 2, 3, 4, 5, 6
    )
    INSERT INTO analytics_run_days AS t
    SELECT * FROM d
    WHERE (d.runs, d.prompt_tokens, d.completion_tokens, d.cost_usd, d.unpriced_runs) <> (0, 0, 0, 0, 0)
      AND (d.runs > 0 OR EXISTS (SELECT 1 FROM analytics_run_days x WHERE x.app_id = d.app_id AND x.day = d.day
        AND x.tool_id IS NOT DISTINCT FROM d.tool_id AND x.kind = d.kind AND x.status = d.status AND x.is_demo = d.is_demo))
    ORDER BY app_id, day, tool_id, kind, status, is_demo
    ON CONFLICT (app_id, day, tool_id, kind, status, is_demo) DO UPDATE SET
      runs = t.runs + excluded.runs,
      prompt_tokens = t.prompt_tokens + excluded.prompt_tokens,
      completion_tokens = t.completion_tokens + excluded.completion_tokens,
      cost_usd = t.cost_usd + excluded.cost_usd,
      unpriced_runs = t.unpriced_runs + excluded.unpriced_runs;
  END IF;
  IF cardinality(movers) = 0 THEN RETURN; END IF;

  -- Subjects per day. A subject's first run of a day counts it in the day's distinct subjects and
  -- moves its last day on; a day's last run lost counts it out (its last day is read again below).
  WITH d AS (
    SELECT app_id, (created_at AT TIME ZONE 'UTC')::date AS day, hashtextextended(subject, 0) AS subject_hash,
      sum(sign)::int AS runs
    FROM unnest(movers) WHERE kind <> 'preview' GROUP BY 1, 2, 3 HAVING sum(sign) <> 0
  ), up AS (
    INSERT INTO analytics_subject_days AS t
    SELECT * FROM d
    WHERE d.runs > 0 OR EXISTS (SELECT 1 FROM analytics_subject_days x
      WHERE x.app_id = d.app_id AND x.day = d.day AND x.subject_hash = d.subject_hash)
    ORDER BY app_id, day, subject_hash
    ON CONFLICT (app_id, day, subject_hash) DO UPDATE SET runs = t.runs + excluded.runs
    RETURNING t.app_id, t.day, t.subject_hash, t.runs
  ), moved AS (
    SELECT up.app_id, up.day, up.subject_hash,
      CASE WHEN up.runs > 0 AND up.runs - d.runs <= 0 THEN 1
           WHEN up.runs <= 0 AND up.runs - d.runs > 0 THEN -1 ELSE 0 END AS step
    FROM up JOIN d USING (app_id, day, subject_hash)
  ), seen AS (
    INSERT INTO analytics_subjects AS t
    SELECT app_id, subject_hash, max(day) FROM moved WHERE step = 1 GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (app_id, subject_hash) DO UPDATE SET last_day = excluded.last_day
    WHERE t.last_day < excluded.last_day
  )
  INSERT INTO analytics_days AS t
  SELECT app_id, day, sum(step)::int FROM moved GROUP BY 1, 2 HAVING sum(step) <> 0 ORDER BY 1, 2
  ON CONFLICT (app_id, day) DO UPDATE SET subjects = t.subjects + excluded.subjects;

  -- A subject whose day lost its last run: its last day is read again (rare: runs are deleted with
  -- their app, whose counters go by cascade; or moved by hand).
  IF EXISTS (SELECT 1 FROM unnest(movers) WHERE sign < 0) THEN
    WITH lost AS (
      SELECT DISTINCT app_id, hashtextextended(subject, 0) AS subject_hash FROM unnest(movers)
      WHERE kind <> 'preview'
      GROUP BY app_id, (created_at AT TIME ZONE 'UTC')::date, subject HAVING sum(sign) < 0
    ), last AS (
      SELECT l.app_id, l.subject_hash,
        (SELECT max(x.day) FROM analytics_subject_days x
         WHERE x.app_id = l.app_id AND x.subject_hash = l.subject_hash AND x.runs > 0) AS last_day
      FROM lost l
    ), gone AS (
      DELETE FROM analytics_subjects t USING last
      WHERE t.app_id = last.app_id AND t.subject_hash = last.subject_hash AND last.last_day IS NULL
    )
    UPDATE analytics_subjects t SET last_day = last.last_day FROM last
    WHERE t.app_id = last.app_id AND t.subject_hash = last.subject_hash AND t.last_day <> last.last_day;
  END IF;
END$fn$;
--> statement-breakpoint
CREATE FUNCTION analytics_runs_inserted() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  changes analytics_change[] := ARRAY(
    SELECT ROW(1, app_id, created_at, tool_id, kind, status, is_demo, subject, prompt_tokens, completion_tokens,
      cost_usd, cost_known)::analytics_change
    FROM new_rows);
BEGIN
  PERFORM analytics_apply(changes, changes);
  RETURN NULL;
END$fn$;
--> statement-breakpoint
-- Only runs whose counted columns changed (a run's end: its status, tokens and cost; its text
-- output alone moves nothing), and among them the subjects' movers.
CREATE FUNCTION analytics_runs_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  changes analytics_change[] := ARRAY(
    SELECT c FROM old_rows o JOIN new_rows n USING (id)
    CROSS JOIN LATERAL (VALUES
      (ROW(-1, o.app_id, o.created_at, o.tool_id, o.kind, o.status, o.is_demo, o.subject, o.prompt_tokens,
        o.completion_tokens, o.cost_usd, o.cost_known)::analytics_change),
      (ROW(1, n.app_id, n.created_at, n.tool_id, n.kind, n.status, n.is_demo, n.subject, n.prompt_tokens,
        n.completion_tokens, n.cost_usd, n.cost_known)::analytics_change)) v(c)
    WHERE (o.app_id, o.created_at, o.tool_id, o.kind, o.status, o.is_demo, o.subject, o.prompt_tokens,
        o.completion_tokens, o.cost_usd, o.cost_known)
      IS DISTINCT FROM (n.app_id, n.created_at, n.tool_id, n.kind, n.status, n.is_demo, n.subject, n.prompt_tokens,
        n.completion_tokens, n.cost_usd, n.cost_known));
  movers analytics_change[];
BEGIN
  IF cardinality(changes) = 0 THEN RETURN NULL; END IF;
  movers := ARRAY(
    SELECT c FROM old_rows o JOIN new_rows n USING (id)
    CROSS JOIN LATERAL (VALUES
      (ROW(-1, o.app_id, o.created_at, o.tool_id, o.kind, o.status, o.is_demo, o.subject, o.prompt_tokens,
        o.completion_tokens, o.cost_usd, o.cost_known)::analytics_change),
      (ROW(1, n.app_id, n.created_at, n.tool_id, n.kind, n.status, n.is_demo, n.subject, n.prompt_tokens,
        n.completion_tokens, n.cost_usd, n.cost_known)::analytics_change)) v(c)
    WHERE (o.app_id, o.created_at, o.subject, o.kind) IS DISTINCT FROM (n.app_id, n.created_at, n.subject, n.kind));
  PERFORM analytics_apply(changes, movers);
  RETURN NULL;
END$fn$;
--> statement-breakpoint
-- Runs deleted with their app are not counted out: the app's counters go with it by cascade.
CREATE FUNCTION analytics_runs_deleted() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  changes analytics_change[] := ARRAY(
    SELECT ROW(-1, app_id, created_at, tool_id, kind, status, is_demo, subject, prompt_tokens, completion_tokens,
      cost_usd, cost_known)::analytics_change
    FROM old_rows o WHERE EXISTS (SELECT 1 FROM apps a WHERE a.id = o.app_id));
BEGIN
  PERFORM analytics_apply(changes, changes);
  RETURN NULL;
END$fn$;
--> statement-breakpoint
CREATE FUNCTION analytics_runs_truncated() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE analytics_run_days, analytics_subject_days, analytics_days, analytics_subjects;
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE TRIGGER analytics_runs_inserted AFTER INSERT ON tool_runs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_runs_inserted();--> statement-breakpoint
CREATE TRIGGER analytics_runs_updated AFTER UPDATE ON tool_runs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_runs_updated();--> statement-breakpoint
CREATE TRIGGER analytics_runs_deleted AFTER DELETE ON tool_runs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_runs_deleted();--> statement-breakpoint
CREATE TRIGGER analytics_runs_truncated AFTER TRUNCATE ON tool_runs
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_runs_truncated();--> statement-breakpoint
-- The runs recorded before this migration.
INSERT INTO analytics_run_days
SELECT app_id, (created_at AT TIME ZONE 'UTC')::date, tool_id, kind, status, is_demo, count(*),
  sum(coalesce(prompt_tokens, 0)), sum(coalesce(completion_tokens, 0)), sum(cost_usd),
  count(*) FILTER (WHERE NOT cost_known)
FROM tool_runs GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
INSERT INTO analytics_subject_days
SELECT app_id, (created_at AT TIME ZONE 'UTC')::date, hashtextextended(subject, 0), count(*)
FROM tool_runs WHERE kind <> 'preview' GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO analytics_days SELECT app_id, day, count(*) FROM analytics_subject_days GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO analytics_subjects SELECT app_id, subject_hash, max(day) FROM analytics_subject_days GROUP BY 1, 2;
