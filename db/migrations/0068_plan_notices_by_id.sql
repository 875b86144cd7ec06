ALTER TABLE "notifications" ADD COLUMN "plan_id" uuid;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "plan_id" uuid;--> statement-breakpoint
ALTER TABLE "push_outbox" ADD COLUMN "plan_id" uuid;--> statement-breakpoint
-- Hand-written: the plans' notices already in the bells name their plan where their title names
-- one plan of their conversation only (titles of lib/notifications/types/plan-*.ts); a waiting
-- push or e-mail leaves within a day and is not named.
UPDATE "notifications" n SET "plan_id" = m."plan_id"
FROM (
  SELECT n2."id", min(p."id"::text)::uuid AS "plan_id"
  FROM "notifications" n2
  JOIN "plans" p ON p."conversation_id" = n2."conversation_id"
    AND n2."title" = CASE n2."type"
      WHEN 'plan_proposed' THEN 'New plan: ' WHEN 'plan_changed' THEN 'Plan changed: '
      WHEN 'plan_cancelled' THEN 'Plan cancelled: ' WHEN 'plan_reminder' THEN 'Coming up: '
      WHEN 'plan_feedback' THEN 'How was it? ' END || p."title"
  WHERE n2."type" IN ('plan_proposed', 'plan_changed', 'plan_cancelled', 'plan_reminder', 'plan_feedback')
  GROUP BY n2."id"
  HAVING count(*) = 1
) m
WHERE n."id" = m."id";
