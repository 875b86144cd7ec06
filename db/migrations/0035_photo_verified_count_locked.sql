-- couples.photo_verified_partners, counted after the couple's row is locked: 0030's single UPDATE
-- counted in a snapshot taken before it waited on the other partner's change of the same couple,
-- so two changes at once left a wrong count. In PL/pgSQL each statement takes a new snapshot, so
-- the count after the lock sees the committed change. NO KEY UPDATE: the UPDATE's own lock, which
-- leaves inserts referencing the couple unblocked.
CREATE OR REPLACE FUNCTION photo_verifications_count_trg() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.couple_id ELSE NEW.couple_id END;
BEGIN
  PERFORM 1 FROM public.couples WHERE id = changed FOR NO KEY UPDATE;
  UPDATE public.couples
  SET photo_verified_partners = (
    SELECT count(*) FROM public.photo_verifications v WHERE v.couple_id = changed AND v.status = 'verified'
  )
  WHERE id = changed;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Counts that drifted before: recounted once.
UPDATE couples c SET photo_verified_partners = n.verified
FROM (
  SELECT c2.id, (SELECT count(*) FROM photo_verifications v WHERE v.couple_id = c2.id AND v.status = 'verified') AS verified
  FROM couples c2
) n
WHERE n.id = c.id AND c.photo_verified_partners <> n.verified;
