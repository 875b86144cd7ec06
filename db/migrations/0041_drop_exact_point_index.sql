-- No walk reads exact points any more: discover's nearby candidates walk the shown points (lib/discover/queries.ts).
DROP INDEX "locations_point_gist_idx";
