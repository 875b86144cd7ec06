-- Requests read couples on their own: the one wide read of the table a request makes ('most in
-- common' ranked afresh, every discoverable couple's interest mask) took 60 ms with two parallel
-- workers against 16 ms alone on two cores at 100,000 couples. A request never waits for worker
-- processes to start, and under load the cores they would take are serving other requests.
ALTER TABLE "couples" SET (parallel_workers = 0);
