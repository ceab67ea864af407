import type { Cluster, Redis } from 'ioredis';

// The store's atomic steps, as Lua scripts (EVALSHA, with ioredis falling back to EVAL after a restart emptied the
// script cache). Each touches the keys of one hash tag only (keys.ts), so each runs in one Cluster slot, except
// CREATE and APPEND_STATUS: they write the task with its owner's ListTasks entry and its running mark in one script
// (half the scripts of a SendMessage; docs/performance.md, "Durable throughput on Redis"), which standalone Redis
// allows and a Cluster refuses. In Cluster mode the store sends CREATE_TASK and APPEND_PUBLISH (the task's slot only)
// and then INDEX and MARK_RUNNING as steps of their own (cluster-writes.ts). A script runs alone on the server: its
// check and its writes cannot interleave with another client's.

/** Server time in ms (allowed before writes: Redis 7 and Valkey replicate a script's effects, not the script). */
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * The owner's ListTasks index entry after a write, and the coordinator's running-task mark ('1' running since now,
 * '0' not running, '' no coordinator). Shared by the scripts that write a task together with its index. The entry is
 * written without reading the one it replaces: it is written in the script that made version v, after that
 * script's version check, and every other writer (a repair from a fresh read, INDEX's 'r'; an instance of an older
 * release, which indexed after its write with INDEX's 'w') writes a version the task already had, so no entry can be
 * newer (docs/performance.md, "Eighteenth session"). An entry new to the meta hash has no expiry entry to drop (every
 * script writes and removes the two together): the `ZREM` goes only with a replaced one (a call less per create;
 * docs/performance.md, "Twentieth session").
 */
const INDEX_WRITE = `
local function index(list, meta, expiry, seq, id, v, s, ts, c, ttl)
  local added = redis.call('HSET', meta, id, cjson.encode({v = v, s = s, t = ts, c = c}))
  redis.call('ZADD', list, redis.call('INCR', seq), id)
  if ttl > 0 then
    ${NOW}
    redis.call('ZADD', expiry, now + ttl, id)
  elseif added == 0 then
    redis.call('ZREM', expiry, id)
  end
end
local function mark(running, id, flag)
  if flag == '1' then
    ${NOW}
    redis.call('ZADD', running, now, id)
  elseif flag == '0' then
    redis.call('ZREM', running, id)
  end
end`;

/**
 * The task's own writes on create, shared by CREATE and CREATE_TASK (KEYS: task, log, push, push-order, push-state;
 * ARGV: owner, contextId, state, status timestamp, task JSON, version, event JSON or '', ttl ms or 0). Returns 0 from
 * the script when the task exists already; leaves `ttl` set for what follows. The stream and push keys an expired task
 * of the same id left (its keys expire one by one) are deleted; one EXISTS over the five keys finds that none are
 * there, the usual case, without a DEL of four absent keys (docs/performance.md, "Twentieth session").
 */
const CREATE_WRITE = `
if redis.call('EXISTS', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]) > 0 then
  if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
  redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5])
end
if ARGV[7] ~= '' then redis.call('XADD', KEYS[2], '2-0', 'c', ARGV[2], 's', ARGV[3], 'e', ARGV[7]) end
redis.call('HSET', KEYS[1], 'o', ARGV[1], 'c', ARGV[2], 's', ARGV[3], 'ts', ARGV[4], 'j', ARGV[5], 'v', ARGV[6], 'sv', ARGV[6])
local ttl = tonumber(ARGV[8])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) if ARGV[7] ~= '' then redis.call('PEXPIRE', KEYS[2], ttl) end end`;

/**
 * KEYS: task, log, push, push-order, push-state, then the owner's list, meta, expiry, seq, then the coordinator's
 * running. ARGV: owner, contextId, state, status timestamp, task JSON, version (1, or 2 with an event), event JSON or
 * '', ttl ms (finished: the keys expire) or 0, task id, running mark ('1', '0' or '').
 * Returns 0 when the task exists already (nothing written), else 1.
 * One script for the task, its ListTasks entry and its running mark (keys of three hash tags: standalone Redis only;
 * see docs/performance.md, "Durable throughput on Redis").
 */
const CREATE = `
${INDEX_WRITE}
${CREATE_WRITE}
-- An entry found is a finished task's of the same id whose keys expired before a ListTasks purged it: replaced.
index(KEYS[6], KEYS[7], KEYS[8], KEYS[9], ARGV[9], tonumber(ARGV[6]), ARGV[3], ARGV[4], ARGV[2], ttl)
mark(KEYS[10], ARGV[9], ARGV[10])
return 1`;

/**
 * CREATE without the index and the mark (Cluster mode: the task's slot only). KEYS: task, log, push, push-order,
 * push-state. ARGV: CREATE's first eight. Returns 0 when the task exists already (nothing written), else 1.
 */
const CREATE_TASK = `
${CREATE_WRITE}
return 1`;

/**
 * KEYS: task, log, push, push-order, push-state. ARGV: expected version, state after, status timestamp, task JSON or ''
 * (a snapshot: written every 16th version), event JSON, ttl ms (finished) or 0.
 * Returns {1, new version}, {0, actual version} (conflict: nothing written) or {-1, 0} (no such task).
 * The event goes to the stream first: an XADD the stream refuses (an id not above its last) fails the script before
 * any write. APPEND_WRITE is its check and writes, shared with APPEND_STATUS.
 */
const APPEND_WRITE = `
local h = redis.call('HMGET', KEYS[1], 'v', 'c', 'pn')
local v = h[1]
if not v then return {-1, 0} end
if v ~= ARGV[1] then return {0, tonumber(v)} end
local nv = tonumber(v) + 1
local c = h[2]
redis.call('XADD', KEYS[2], nv .. '-0', 'c', c, 's', ARGV[2], 'e', ARGV[5])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'v', nv, 's', ARGV[2], 'ts', ARGV[3], 'j', ARGV[4], 'sv', nv)
else
  redis.call('HSET', KEYS[1], 'v', nv, 's', ARGV[2], 'ts', ARGV[3])
end
local ttl = tonumber(ARGV[6])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
  -- The push keys exist only once the task has 'pn' (SAVE_PUSH, SET_DELIVERY): no three no-op calls per finish.
  if h[3] then for i = 3, 5 do redis.call('PEXPIRE', KEYS[i], ttl) end end
end`;
const APPEND = `${APPEND_WRITE}
return {1, nv}`;

/**
 * APPEND with a wake-up for the Cluster mode's stream tail (shard-tail.ts), published on the task's shard channel
 * (KEYS[6], in the task's slot) in the same script as the write, so no written entry goes unannounced. The message is
 * the record itself, a JSON array [seq, state, contextId, event]: the subscribers take it without reading the stream
 * (docs/performance.md, "Nineteenth session: Redis Cluster").
 */
const APPEND_PUBLISH = `${APPEND_WRITE}
redis.call('SPUBLISH', KEYS[6], '[' .. nv .. ',' .. cjson.encode(ARGV[2]) .. ',' .. cjson.encode(c) .. ',' .. ARGV[5] .. ']')
return {1, nv}`;

/**
 * APPEND for a status change, with the owner's ListTasks entry and the running mark in the same script (as CREATE).
 * KEYS: APPEND's, then list, meta, expiry, seq, running. ARGV: APPEND's, then task id, running mark.
 */
const APPEND_STATUS = `
${INDEX_WRITE}
${APPEND_WRITE}
index(KEYS[6], KEYS[7], KEYS[8], KEYS[9], ARGV[7], nv, ARGV[2], ARGV[3], c, ttl)
mark(KEYS[10], ARGV[7], ARGV[8])
return {1, nv}`;

/**
 * KEYS: task, log. Returns nil, or {owner, version, snapshot version, snapshot JSON, contextId, log entries after the
 * snapshot}.
 */
const GET = `
local h = redis.call('HMGET', KEYS[1], 'o', 'v', 'sv', 'j', 'c')
if not h[2] then return nil end
local tail = {}
if h[3] ~= h[2] then tail = redis.call('XRANGE', KEYS[2], (tonumber(h[3]) + 1) .. '-0', h[2] .. '-0') end
return {h[1], h[2], h[3], h[4], h[5], tail}`;

/**
 * KEYS: task, log. ARGV: after seq, count. Returns nil (no such task) or {contextId, entries with seq > after, ms until
 * the task expires (-1: it does not)}.
 */
const READ = `
local c = redis.call('HGET', KEYS[1], 'c')
if not c then return nil end
return {c, redis.call('XRANGE', KEYS[2], (tonumber(ARGV[1]) + 1) .. '-0', '+', 'COUNT', ARGV[2]), redis.call('PTTL', KEYS[1])}`;

/**
 * The owner's ListTasks index after a create or a status change, as its own script (the writes themselves index with
 * INDEX_WRITE; the store sends this one to repair after a failed write). KEYS: list, meta, expiry, seq. ARGV: task id,
 * version, state, status timestamp, contextId, ttl ms (finished) or 0, mode, the version a failed write indexed (or
 * 0). Modes: 'w' (a write: applied when newer than the entry, so two instances' writes indexed out of order never go
 * back), 'r' (a repair from a fresh read of the task after a failed write: also replaces an entry of the same
 * version, or the one the failed write left), 'd' (the task is not this owner's, or gone: the entry goes when it is
 * not newer, or is the failed write's), 'c' (Cluster mode: a create, sent after the task's own script; as 'w', but
 * also replaces an entry whose task expired, a finished task of the same id that no ListTasks purged yet).
 * Returns the new list score, or 0.
 */
const INDEX = `
local old = redis.call('HGET', KEYS[2], ARGV[1])
local v = tonumber(ARGV[2])
if old then
  local ov = tonumber(cjson.decode(old).v)
  local failed = ARGV[7] ~= 'w' and ARGV[7] ~= 'c' and ov == tonumber(ARGV[8])
  if ARGV[7] == 'c' then
    local at = redis.call('ZSCORE', KEYS[3], ARGV[1])
    ${NOW}
    failed = at ~= false and tonumber(at) <= now
  end
  if not failed and (ov > v or (ov == v and (ARGV[7] == 'w' or ARGV[7] == 'c'))) then return 0 end
elseif ARGV[7] == 'd' then
  return 0
end
if ARGV[7] == 'd' then
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
  return 0
end
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode({v = v, s = ARGV[3], t = ARGV[4], c = ARGV[5]}))
local score = redis.call('INCR', KEYS[4])
redis.call('ZADD', KEYS[1], score, ARGV[1])
local ttl = tonumber(ARGV[6])
if ttl > 0 then
  ${NOW}
  redis.call('ZADD', KEYS[3], now + ttl, ARGV[1])
else
  redis.call('ZREM', KEYS[3], ARGV[1])
end
return score`;

/**
 * One ListTasks page. KEYS: list, meta, expiry. ARGV: cursor (exclusive score) or '', page size, and the filters
 * contextId, state, status timestamp (inclusive lower bound), each '' or '=' .. value. First drops the index entries
 * of expired tasks. Returns {total, {id, score, id, score, ...}} with up to page size + 1 entries, newest first.
 */
const LIST = `
${NOW}
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
for _, id in ipairs(gone) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
end
local size = tonumber(ARGV[2])
if ARGV[3] == '' and ARGV[4] == '' and ARGV[5] == '' then
  local max = '+inf'
  if ARGV[1] ~= '' then max = '(' .. ARGV[1] end
  return {redis.call('ZCARD', KEYS[1]), redis.call('ZREVRANGEBYSCORE', KEYS[1], max, '-inf', 'WITHSCORES', 'LIMIT', 0, size + 1)}
end
local cursor = math.huge
if ARGV[1] ~= '' then cursor = tonumber(ARGV[1]) end
local ctx, state, after = string.sub(ARGV[3], 2), string.sub(ARGV[4], 2), string.sub(ARGV[5], 2)
local all = redis.call('ZREVRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local metas = {}
if #all > 0 then
  local ids = {}
  for i = 1, #all, 2 do ids[#ids + 1] = all[i] end
  metas = redis.call('HMGET', KEYS[2], unpack(ids))
end
local total, page, n = 0, {}, 0
for i = 1, #all, 2 do
  local raw = metas[(i + 1) / 2]
  if raw then
    local m = cjson.decode(raw)
    if (ARGV[3] == '' or m.c == ctx) and (ARGV[4] == '' or m.s == state) and (ARGV[5] == '' or m.t >= after) then
      total = total + 1
      local score = tonumber(all[i + 1])
      if score < cursor and n <= size then
        page[#page + 1] = all[i]
        page[#page + 1] = all[i + 1]
        n = n + 1
      end
    end
  end
end
return {total, page}`;

/**
 * KEYS: task, push, push-order. ARGV: config id, config JSON. Returns 0 when the task does not exist. The configs
 * expire with a finished task.
 */
const SAVE_PUSH = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if redis.call('ZSCORE', KEYS[3], ARGV[1]) == false then
  redis.call('ZADD', KEYS[3], redis.call('HINCRBY', KEYS[1], 'pn', 1), ARGV[1])
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) redis.call('PEXPIRE', KEYS[3], ttl) end
return 1`;

/** KEYS: push, push-order. Returns the configs' JSON in the order they were first saved. */
const LIST_PUSH = `
local ids = redis.call('ZRANGE', KEYS[2], 0, -1)
if #ids == 0 then return {} end
local out = {}
local values = redis.call('HMGET', KEYS[1], unpack(ids))
for i = 1, #ids do if values[i] then out[#out + 1] = values[i] end end
return out`;

/**
 * KEYS: task, push-state. ARGV: config id, last delivered seq, state JSON. The cursor never moves backwards (two
 * instances delivering the same config cannot undo progress).
 */
const SET_DELIVERY = `
local old = redis.call('HGET', KEYS[2], ARGV[1])
local seq = tonumber(ARGV[2])
if old then
  local prev = tonumber(cjson.decode(old).lastDeliveredSeq)
  if prev and prev > seq then seq = prev end
end
local state = cjson.decode(ARGV[3])
state.lastDeliveredSeq = seq
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(state))
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
-- The task's 'pn' tells APPEND to expire the push keys with it (set by SAVE_PUSH; a state without a config is rare).
if ttl ~= -2 then redis.call('HSETNX', KEYS[1], 'pn', 0) end
return 1`;

/** KEYS: leases, holders. ARGV: instance, ttl ms, task ids... Renews (or takes) the leases. */
const RENEW = `
${NOW}
for i = 3, #ARGV do
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[i])
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[1])
end
return 1`;

/**
 * KEYS: leases, holders. ARGV: instance, then pairs of task id and '1' to hand over (expire now) or '0' to drop it.
 * Only this instance's leases are touched. Returns how many were.
 */
const RELEASE = `
local n = 0
for i = 2, #ARGV, 2 do
  local id = ARGV[i]
  if redis.call('HGET', KEYS[2], id) == ARGV[1] then
    if ARGV[i + 1] == '1' then
      redis.call('ZADD', KEYS[1], 0, id)
    else
      redis.call('ZREM', KEYS[1], id)
      redis.call('HDEL', KEYS[2], id)
    end
    n = n + 1
  end
end
return n`;

/**
 * The janitor's candidates. KEYS: leases, holders, running. ARGV: grace ms (a lease expired for longer is dead),
 * no-lease age ms, limit. Returns {task id, holder, ...}: expired leases, and running tasks without any lease whose
 * status has not changed for the no-lease age (holder '').
 */
const REAP = `
${NOW}
local out = {}
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]), 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(expired) do
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id) or ''
end
local idle = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now - tonumber(ARGV[2]), 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(idle) do
  if redis.call('ZSCORE', KEYS[1], id) == false then
    out[#out + 1] = id
    out[#out + 1] = ''
  end
end
return out`;

/** KEYS: leases, holders. ARGV: task id, holder ('' : none). Deletes the lease if that holder still has it. */
const DROP_LEASE = `
local holder = redis.call('HGET', KEYS[2], ARGV[1]) or ''
if holder ~= ARGV[2] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
return 1`;

/** KEYS: running. ARGV: task id, '1' (SUBMITTED/WORKING since now) or '0' (not running). */
const MARK_RUNNING = `
if ARGV[2] == '1' then
  ${NOW}
  redis.call('ZADD', KEYS[1], now, ARGV[1])
else
  redis.call('ZREM', KEYS[1], ARGV[1])
end
return 1`;

export const SCRIPTS = {
  a2aCreate: { keys: 10, lua: CREATE },
  a2aCreateTask: { keys: 5, lua: CREATE_TASK },
  a2aAppend: { keys: 5, lua: APPEND },
  a2aAppendPublish: { keys: 6, lua: APPEND_PUBLISH },
  a2aAppendStatus: { keys: 10, lua: APPEND_STATUS },
  a2aGet: { keys: 2, lua: GET },
  a2aRead: { keys: 2, lua: READ },
  a2aIndex: { keys: 4, lua: INDEX },
  a2aList: { keys: 3, lua: LIST },
  a2aSavePush: { keys: 3, lua: SAVE_PUSH },
  a2aListPush: { keys: 2, lua: LIST_PUSH },
  a2aSetDelivery: { keys: 2, lua: SET_DELIVERY },
  a2aRenew: { keys: 2, lua: RENEW },
  a2aRelease: { keys: 2, lua: RELEASE },
  a2aReap: { keys: 3, lua: REAP },
  a2aDropLease: { keys: 2, lua: DROP_LEASE },
  a2aMarkRunning: { keys: 1, lua: MARK_RUNNING },
} as const;

export type ScriptName = keyof typeof SCRIPTS;
export type RedisClient = Redis | Cluster;

/** Registers the scripts on a client (idempotent); `run` calls one with its keys and arguments. */
export function defineScripts(client: RedisClient): void {
  for (const [name, { keys, lua }] of Object.entries(SCRIPTS)) {
    if (typeof (client as unknown as Record<string, unknown>)[name] === 'function') continue;
    client.defineCommand(name, { numberOfKeys: keys, lua });
  }
}

export function runScript(
  client: RedisClient,
  name: ScriptName,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  return scriptCommand(client, name).call(client, ...keys, ...args) as Promise<unknown>;
}

/** The command `defineScripts` added for a script, on a client or on one of its pipelines. */
export function scriptCommand(on: object, name: ScriptName): (...args: (string | number)[]) => unknown {
  const command = (on as Record<string, ((...a: (string | number)[]) => unknown) | undefined>)[name];
  if (!command) throw new Error(`script ${name} is not defined on this client`);
  return command;
}
