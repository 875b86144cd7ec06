/**
 * libuv's thread pool, and the work here that holds its threads. The pool runs Node's file system
 * calls, dns.lookup (a connection made by host name), zlib and WebCrypto jobs (an Auth.js token's
 * first decode: lib/auth/jwt-cache.ts), and native add-ons' async work: argon2 (@node-rs/argon2
 * queues napi async work) and sharp (metadata and pipeline run in Napi::AsyncWorker, libvips
 * inside). A password check or an image decode holds a thread for its whole run, so each kind has
 * slots (lib/semaphore.ts processSlots), and the pool has libuv's default 4 threads beyond them
 * (server.ts sets it): with every slot busy, a request's file read or look-up still finds a free
 * thread rather than queueing behind argon2 runs and seconds of decoding.
 */

/**
 * Sign-ins checking a password at once, per process (lib/auth/password.ts). Each argon2 run takes
 * 19 MiB and a pool thread for tens of milliseconds; a flood of sign-ins must leave cores, threads
 * and database connections to the rest of the API.
 */
export const PASSWORD_SLOTS = 3;

/**
 * Images decoded at once, per process (lib/images/process.ts). A photo at the pixel limit is a few
 * hundred kB to send but takes seconds of a core, tens of MB and a pool thread: a burst of uploads,
 * each within its limits, must leave them to the rest of the API, as the password slots do for sign-ins.
 */
export const IMAGE_SLOTS = 2;

/** libuv's pool (UV_THREADPOOL_SIZE): the slots, and libuv's default 4 for everything else. */
export const THREAD_POOL_SIZE = PASSWORD_SLOTS + IMAGE_SLOTS + 4;
