CREATE TABLE "couple_shown_points" (
	"point" "cube" PRIMARY KEY NOT NULL,
	"couples" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "couple_shown_points_point_idx" ON "couple_shown_points" USING gist ("point");--> statement-breakpoint
-- hand-written:
-- A shown point's couples by id (the directory's nearest walk, lib/directory/queries.ts): the same
-- couples as locations_couple_shown_point_idx (migration 0009), in order of (shown point, couple).
CREATE INDEX locations_couple_shown_point_id_idx ON locations (shown_point(privacy_level, latitude, longitude), entity_id)
  WHERE entity_type = 'couple' AND privacy_level IN ('full', 'city', 'region') AND latitude IS NOT NULL AND longitude IS NOT NULL;--> statement-breakpoint
-- couple_shown_points in step with locations, in the statement that writes them: each couple's
-- place added (a new row's shown point) or taken away (an old row's), counted per point, the points
-- locked in one order (no deadlock between two moves the other way), a point no place shows any
-- more deleted. Statement-level with transition tables: a bulk load (a seed, the bench) counts
-- each point once per statement, not once per row.
CREATE FUNCTION couple_shown_points_trg() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added public.cube[] := '{}';
  removed public.cube[] := '{}';
  emptied public.cube[];
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    added := array(SELECT public.shown_point(privacy_level, latitude, longitude) FROM new_rows WHERE entity_type = 'couple');
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    removed := array(SELECT public.shown_point(privacy_level, latitude, longitude) FROM old_rows WHERE entity_type = 'couple');
  END IF;
  WITH counted AS (
    INSERT INTO public.couple_shown_points AS kept (point, couples)
    SELECT change.point, sum(change.n)::int
    FROM (SELECT unnest(added) AS point, 1 AS n UNION ALL SELECT unnest(removed), -1) change
    WHERE change.point IS NOT NULL
    GROUP BY change.point HAVING sum(change.n) <> 0 ORDER BY change.point
    ON CONFLICT (point) DO UPDATE SET couples = kept.couples + excluded.couples
    RETURNING kept.point, kept.couples
  )
  SELECT array_agg(counted.point) INTO emptied FROM counted WHERE counted.couples = 0;
  DELETE FROM public.couple_shown_points WHERE point = ANY (emptied);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER locations_couple_shown_points_insert AFTER INSERT ON locations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION couple_shown_points_trg();--> statement-breakpoint
CREATE TRIGGER locations_couple_shown_points_update AFTER UPDATE ON locations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION couple_shown_points_trg();--> statement-breakpoint
CREATE TRIGGER locations_couple_shown_points_delete AFTER DELETE ON locations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION couple_shown_points_trg();--> statement-breakpoint
-- Kept also where a bulk load turns ordinary triggers off (session_replication_role = replica: scripts/seed/scale.ts).
ALTER TABLE locations ENABLE ALWAYS TRIGGER locations_couple_shown_points_insert;--> statement-breakpoint
ALTER TABLE locations ENABLE ALWAYS TRIGGER locations_couple_shown_points_update;--> statement-breakpoint
ALTER TABLE locations ENABLE ALWAYS TRIGGER locations_couple_shown_points_delete;--> statement-breakpoint
-- The places already saved.
INSERT INTO couple_shown_points (point, couples)
  SELECT shown_point(privacy_level, latitude, longitude), count(*)::int FROM locations
  WHERE entity_type = 'couple' AND shown_point(privacy_level, latitude, longitude) IS NOT NULL
  GROUP BY 1;
