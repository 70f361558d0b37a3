import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { hashToken, newToken, tokenPrefix } from '../src/auth/tokens.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { LISTENER_APPLICATION_NAME } from '../src/db/listener.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { importData } from '../src/import/import-data.ts';
import { startCommand } from '../scripts/start-command.mjs';
import { finishLessonBody, type FreshLesson } from './dataset.ts';
import { createPgliteFolder, createPostgresDatabase, DEFAULT_ADMIN_URL, type FreshDatabase } from './fresh-database.ts';
import { freePort, startServer, type Server } from './processes.ts';
import { summarizeProfiles } from './profile.ts';
import type { Check } from './report.ts';
import type { ChildMessage, ParentMessage, SubscriberReport, SubscriberSpec } from './subscribers.ts';

// npm run bench -- --subscriptions [--subscribers N] [--per-lesson N] [--rate R] [--seconds S] [--clients N]
//                                  [--sse] [--pglite] [--profile]
// Live lessons under load: students follow their lessons while the teacher ends them (bench/README.md).

const root = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_FILE = join(root, 'bench', 'results', 'subscriptions-latest.json');
/** As in bench/run.ts: production settings, the per-caller rate limit at its maximum. */
const GATEWAY_ENV = { NODE_ENV: 'production', LOG_LEVEL: 'warn', DEMO_DATA: '0', RATE_LIMIT_MAX: '1000000' };
const TEACHER_ID = 1;
const FIRST_STUDENT_ID = 1_000;
const ACTIVITIES = 10;
const CONCEPTS = 50;
/**
 * Lessons finished with no subscriber, to measure what a finish costs without its fan-out: this many
 * seconds' worth, after a warm-up of WARMUP_SECONDS' worth (the finish route's first calls are compiled).
 */
const REFERENCE_SECONDS = 5;
const WARMUP_SECONDS = 2;
/** Sockets each client process has connecting at once. */
const OPEN_CONCURRENCY = 50;
/** Once the last finish is answered, its events have this long to arrive before the missing ones count as lost. */
const DELIVERY_GRACE_MS = 10_000;
/** Quiet time with every subscription open: the idle cost of the sockets (keep-alive pings). */
const IDLE_MS = 5_000;

const TARGETS = { subscriptions: 10_000, p99Ms: 100, rate: 20, rssMb: 400 };

const LAUNCH_LESSON = 'mutation Launch($id: ID!) { launchLesson(id: $id) { id pinned locked } }';

type Options = {
  subscribers: number;
  perLesson: number;
  rate: number;
  seconds: number | undefined;
  clients: number;
  /** Event streams at /graphql/stream (graphql-sse) instead of WebSockets. */
  sse: boolean;
  pglite: boolean;
  profile: boolean;
  /** Node's or V8's flags added after `npm start`'s own (`--node-flag=--heap-growing-percent=20`): a setting tried without editing package.json. */
  nodeFlags: string[];
};

/** `--subscriptions`, or `--cases subscriptions`: bench/run.ts hands the whole run to this file. */
export function wantsSubscriptions(argv: string[]): boolean {
  return (
    argv.includes('--subscriptions') ||
    argv.includes('--cases=subscriptions') ||
    argv.some((arg, i) => arg === '--cases' && argv[i + 1] === 'subscriptions')
  );
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      subscriptions: { type: 'boolean', default: false },
      cases: { type: 'string' },
      subscribers: { type: 'string' },
      'per-lesson': { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string' },
      clients: { type: 'string' },
      sse: { type: 'boolean', default: false },
      pglite: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      'node-flag': { type: 'string', multiple: true, default: [] },
    },
  });
  const positive = (name: string, value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number; got ${JSON.stringify(value)}`);
    return n;
  };
  return {
    subscribers: Math.floor(positive('subscribers', values.subscribers, 10_000)),
    perLesson: Math.floor(positive('per-lesson', values['per-lesson'], 30)),
    rate: positive('rate', values.rate, 20),
    seconds: values.seconds === undefined ? undefined : positive('seconds', values.seconds, 1),
    clients: Math.floor(positive('clients', values.clients, 2)),
    sse: values.sse,
    pglite: values.pglite,
    profile: values.profile,
    nodeFlags: values['node-flag'],
  };
}

const started = Date.now();
const log = (message: string) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------------------------------------------
// The data set: students with tokens, one classroom per lesson (a launch unpins the classroom's others).

type Lesson = FreshLesson & { students: { userId: number; token: string }[] };
type LiveDataset = { teacherToken: string; conceptUids: string[]; followed: Lesson[]; reference: Lesson[] };

/**
 * The teacher, classrooms, activities and lessons through importData, as bench/dataset.ts loads its data
 * (rows shaped as in production). The students, their tokens (stored hashed, as importData stores them)
 * and their sessions, a few statements in all: importData sends a statement or two per record, and its
 * access tokens take ids from a sequence, so it cannot be split into parallel transactions.
 */
async function loadLiveDataset(database: Database, options: Options): Promise<LiveDataset> {
  const teacherToken = newToken();
  const students = Array.from({ length: options.subscribers }, (_, i) => ({ userId: FIRST_STUDENT_ID + i, token: newToken() }));
  const followedCount = Math.ceil(options.subscribers / options.perLesson);
  const referenceCount = Math.ceil(options.rate * (WARMUP_SECONDS + REFERENCE_SECONDS));
  const lessonOf = (id: number, members: Lesson['students']): Lesson => ({
    classroomActivityId: id,
    students: members,
    sessionUids: members.map((student) => `bench-live-${id}-${student.userId}`),
  });
  const followed = Array.from({ length: followedCount }, (_, i) =>
    lessonOf(i + 1, students.slice(i * options.perLesson, (i + 1) * options.perLesson)),
  );
  // Lessons with the same students' sessions in them, but no subscriber.
  const reference = Array.from({ length: referenceCount }, (_, i) =>
    lessonOf(followedCount + i + 1, followed[i % followedCount]!.students),
  );
  const lessons = [...followed, ...reference];
  const concepts = Array.from({ length: CONCEPTS }, (_, i) => ({
    id: i + 1,
    uid: `bench-live-concept-${i + 1}`,
    name: `Concept ${i + 1}`,
  }));

  const sql = (query: string, ...columns: unknown[][]) => database.prisma.$executeRawUnsafe(query, ...columns);
  await sql(
    `INSERT INTO users (id, name, role) SELECT id, 'Student ' || id, 'student' FROM unnest($1::int[]) AS id`,
    students.map((student) => student.userId),
  );
  await sql(
    'INSERT INTO access_tokens (user_id, token_hash, token_prefix) SELECT * FROM unnest($1::int[], $2::text[], $3::text[])',
    students.map((student) => student.userId),
    students.map((student) => hashToken(student.token)),
    students.map((student) => tokenPrefix(student.token)),
  );
  log(`loaded ${students.length} students with a token each`);

  await inTransaction(database.prisma, (tx) =>
    importData(tx, {
      users: [{ id: TEACHER_ID, name: 'Bench Teacher', email: 'teacher@example.org', role: 'teacher', token: teacherToken }],
      classrooms: lessons.map((lesson) => ({
        id: lesson.classroomActivityId,
        name: `Period ${lesson.classroomActivityId}`,
        teachers: [{ userId: TEACHER_ID, role: 'owner' }],
      })),
      units: [{ id: 1, name: 'Sentence structure' }],
      classifications: [{ id: 1, key: 'lessons', name: 'Quill Lessons' }],
      activities: Array.from({ length: ACTIVITIES }, (_, i) => ({
        id: i + 1,
        uid: `bench-live-activity-${i + 1}`,
        name: `Lesson ${i + 1}`,
        classificationId: 1,
      })),
      concepts,
      // One classroom per lesson: a launch unpins the other lessons of its classroom.
      classroomActivities: lessons.map((lesson) => ({
        id: lesson.classroomActivityId,
        classroomId: lesson.classroomActivityId,
        activityId: (lesson.classroomActivityId % ACTIVITIES) + 1,
        unitId: 1,
        assignedStudentIds: lesson.students.map((student) => student.userId),
      })),
    }),
  );
  const sessions = lessons.flatMap((lesson) =>
    lesson.students.map((student, s) => ({ lesson, userId: student.userId, uid: lesson.sessionUids[s]! })),
  );
  await sql(
    `INSERT INTO activity_sessions (id, uid, classroom_activity_id, activity_id, user_id, state)
     SELECT id, uid, classroom_activity_id, activity_id, user_id, 'started' FROM unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::int[])
       AS s(id, uid, classroom_activity_id, activity_id, user_id)`,
    sessions.map((_, i) => i + 1),
    sessions.map((session) => session.uid),
    sessions.map((session) => session.lesson.classroomActivityId),
    sessions.map((session) => (session.lesson.classroomActivityId % ACTIVITIES) + 1),
    sessions.map((session) => session.userId),
  );
  // Moves every id sequence past the rows written above, so that what finish_lesson creates gets new ids.
  await inTransaction(database.prisma, (tx) => importData(tx, {}));
  log(`loaded ${followed.length} followed lessons and ${reference.length} unfollowed ones, ${options.perLesson} students each`);
  return { teacherToken, conceptUids: concepts.map((concept) => concept.uid), followed, reference };
}

// ---------------------------------------------------------------------------------------------------
// The processes: the gateway as `npm start` runs it, and the client children.

async function startGateway(fresh: FreshDatabase, profileDir: string | undefined, nodeFlags: string[]): Promise<Server> {
  const database = fresh.kind === 'postgresql' ? { DATABASE_URL: fresh.url } : { DATABASE_URL: '', DATA_DIR: fresh.dataDir };
  const { PLAYGROUND: _playground, ...env } = process.env;
  const start = startCommand(root);
  for (const [command, ...args] of start.steps)
    execFileSync(command === 'node' ? process.execPath : command!, args, { cwd: root, stdio: 'inherit' });
  const port = await freePort();
  return startServer({
    name: 'gateway',
    cwd: root,
    args: [
      ...start.nodeArgs.slice(0, -1),
      ...nodeFlags,
      ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
      start.nodeArgs.at(-1)!,
    ],
    env: { ...env, ...database, ...GATEWAY_ENV, PORT: String(port), HOST: '127.0.0.1' },
    port,
    node: process.execPath,
    ready: { path: '/readyz' },
  });
}

type ClientProcess = {
  child: ChildProcess;
  ask<T extends ChildMessage['type']>(message: ParentMessage, answer: T): Promise<Extract<ChildMessage, { type: T }>>;
};

function startClient(): ClientProcess {
  const child = fork(join(root, 'bench', 'subscribers.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    child,
    ask: (message, answer) =>
      new Promise((resolve, reject) => {
        const onMessage = (reply: ChildMessage) => {
          if (reply.type !== answer) return;
          child.off('message', onMessage);
          child.off('exit', onExit);
          resolve(reply as never);
        };
        const onExit = (code: number | null) =>
          reject(new Error(`a client process exited (code ${code}) before answering ${message.type}`));
        child.on('message', onMessage);
        child.once('exit', onExit);
        child.send(message);
      }),
  };
}

/** Asks the child to close its sockets and exit; killed if it has not within 5 s. */
async function stopClient({ child }: ClientProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (child.connected) child.send({ type: 'close' } satisfies ParentMessage);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** utime + stime of /proc/<pid>/stat in ms (as bench/processes.ts), for the client children. */
function cpuMsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------------------------------------------
// The load.

type Sent = { lessonId: number; sentAt: number; answeredAt: number; problem: string | null };

/** Open loop: request i leaves at start + i / rate whatever the earlier ones are doing, as teachers would. */
async function paced(count: number, rate: number, send: (i: number) => Promise<Sent>): Promise<Sent[]> {
  const start = performance.now();
  const all: Promise<Sent>[] = [];
  for (let i = 0; i < count; i += 1) {
    const wait = start + (i * 1_000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    all.push(send(i));
  }
  return Promise.all(all);
}

async function request(
  url: string,
  init: RequestInit,
  lessonId: number,
  check: (status: number, body: any) => string | null,
): Promise<Sent> {
  const sentAt = Date.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    const answeredAt = Date.now();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // reported below as a wrong answer
    }
    return { lessonId, sentAt, answeredAt, problem: check(response.status, body) };
  } catch (error) {
    return { lessonId, sentAt, answeredAt: Date.now(), problem: (error as Error).message };
  }
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? null };
};

/** Sums the children's counts of `kind` events until `expected` arrived or `until` passed. */
async function waitForEvents(clients: ClientProcess[], kind: string, expected: number, until: number): Promise<number> {
  for (;;) {
    const counts = await Promise.all(clients.map((client) => client.ask({ type: 'count', kind }, 'count')));
    const received = counts.reduce((n, c) => n + c.received, 0);
    if (received >= expected || Date.now() > until) return received;
    await sleep(100);
  }
}

/** The database side of delivery (PostgreSQL only): the listening connections and the NOTIFY queue's use. */
function watchDatabase(fresh: FreshDatabase) {
  if (fresh.kind !== 'postgresql') return null;
  const client = new pg.Client({ connectionString: fresh.url });
  let maxQueueUsage = 0;
  let timer: NodeJS.Timeout | undefined;
  const connected = client.connect();
  return {
    async startSampling() {
      await connected;
      timer = setInterval(() => {
        client
          .query<{ usage: number }>('SELECT pg_notification_queue_usage() AS usage')
          .then(({ rows }) => (maxQueueUsage = Math.max(maxQueueUsage, Number(rows[0]!.usage))))
          .catch(() => {});
      }, 200);
    },
    async snapshot() {
      await connected;
      const { rows } = await client.query<{ listeners: string; connections: string }>(
        `SELECT count(*) FILTER (WHERE application_name = $1) AS listeners, count(*) AS connections
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        [LISTENER_APPLICATION_NAME],
      );
      return { listenerConnections: Number(rows[0]!.listeners), gatewayConnections: Number(rows[0]!.connections), maxQueueUsage };
    },
    async stop() {
      clearInterval(timer);
      await client.end().catch(() => {});
    },
  };
}

// ---------------------------------------------------------------------------------------------------

export async function runSubscriptions(argv: string[]): Promise<void> {
  const options = parseOptions(argv);
  const steps: (() => Promise<unknown>)[] = [];
  const cleanup = async () => {
    for (const step of steps.splice(0).reverse()) await step().catch((error: Error) => log(`cleanup: ${error.message}`));
  };
  const interrupted = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const loadAtStart = readFileSync('/proc/loadavg', 'utf8').trim();
  try {
    const fresh = options.pglite ? await createPgliteFolder() : await createPostgresDatabase(process.env.DATABASE_URL || DEFAULT_ADMIN_URL);
    steps.push(() => fresh.remove());
    log(`database: ${fresh.describe}`);
    const database = await openDatabase({
      databaseUrl: fresh.kind === 'postgresql' ? fresh.url : undefined,
      dataDir: fresh.kind === 'pglite' ? fresh.dataDir : '',
    });
    let dataset: LiveDataset;
    try {
      dataset = await loadLiveDataset(database, options);
    } finally {
      await database.close();
    }

    const profileDir = options.profile ? await mkdtemp(join(tmpdir(), 'lgw-bench-profile-')) : undefined;
    const gateway = await startGateway(fresh, profileDir, options.nodeFlags);
    steps.push(() => gateway.stop(profileDir ? 60_000 : 3_000));
    const readyRssMb = gateway.rssMb();
    log(`gateway ${gateway.url} (pid ${gateway.child.pid}, ${readyRssMb} MB resident)`);
    const watcher = watchDatabase(fresh);
    if (watcher) steps.push(() => watcher.stop());

    // Subscribers dealt round-robin, so each child holds students of every lesson.
    const clients = Array.from({ length: options.clients }, startClient);
    steps.push(() => Promise.all(clients.map(stopClient)));
    const specs: SubscriberSpec[][] = clients.map(() => []);
    let dealt = 0;
    for (const lesson of dataset.followed)
      for (const student of lesson.students)
        specs[dealt++ % clients.length]!.push({ token: student.token, lessonId: lesson.classroomActivityId });
    const clientCpu = () => clients.reduce((ms, client) => ms + cpuMsOf(client.child.pid), 0);
    const ownCpu = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1_000;
    };
    const cpuMarks = () => ({ at: Date.now(), gateway: gateway.cpuMs() ?? 0, clients: clientCpu(), bench: ownCpu() });
    type Marks = ReturnType<typeof cpuMarks>;
    const phase = (from: Marks, to: Marks) => {
      const seconds = (to.at - from.at) / 1_000;
      const percent = (ms: number) => round(ms / 10 / seconds, 0);
      return {
        seconds: round(seconds, 1),
        gatewayCpuMs: to.gateway - from.gateway,
        gatewayCpuPercent: percent(to.gateway - from.gateway),
        clientsCpuPercent: percent(to.clients - from.clients),
        benchCpuPercent: percent(to.bench - from.bench),
      };
    };

    // 1. Open every subscription.
    log(`opening ${options.subscribers} subscriptions from ${clients.length} client processes …`);
    const beforeOpen = cpuMarks();
    const opened = await Promise.all(
      clients.map((client, i) =>
        client.ask(
          {
            type: 'open',
            url: options.sse ? `${gateway.url}/graphql/stream` : `${gateway.url.replace('http', 'ws')}/graphql`,
            subscribers: specs[i]!,
            concurrency: OPEN_CONCURRENCY,
          },
          'opened',
        ),
      ),
    );
    const connected = opened.reduce((n, o) => n + o.connected, 0);
    const openProblems = opened.flatMap((o) => o.problems);
    const openPhase = phase(beforeOpen, cpuMarks());
    log(
      `${connected} connected, ${opened.reduce((n, o) => n + o.failed, 0)} refused, in ${openPhase.seconds} s; ${gateway.rssMb()} MB resident`,
    );
    for (const problem of openProblems) log(`  ${problem}`);

    // 2. Quiet: what the open sockets cost at rest.
    await sleep(1_000); // the last subscribe messages are still being set up
    const beforeIdle = cpuMarks();
    await sleep(IDLE_MS);
    const idlePhase = phase(beforeIdle, cpuMarks());
    const openRssMb = gateway.rssMb();
    const databaseSide = watcher ? await watcher.snapshot() : null;
    log(`idle: gateway ${idlePhase.gatewayCpuPercent}% of a core, ${openRssMb} MB resident`);

    const auth = { authorization: `Bearer ${dataset.teacherToken}`, 'content-type': 'application/json' };
    // 3. Launch every followed lesson: each subscriber must hear LAUNCHED, the proof that it is registered.
    log(`launching ${dataset.followed.length} lessons at ${options.rate}/s …`);
    const launches = await paced(dataset.followed.length, options.rate, (i) => {
      const id = dataset.followed[i]!.classroomActivityId;
      return request(
        `${gateway.url}/graphql`,
        { method: 'POST', headers: auth, body: JSON.stringify({ query: LAUNCH_LESSON, variables: { id: String(id) } }) },
        id,
        (status, body) =>
          status === 200 && body?.data?.launchLesson?.pinned === true ? null : `${status} ${JSON.stringify(body?.errors ?? body)}`,
      );
    });
    const launched = await waitForEvents(clients, 'LAUNCHED', connected, Date.now() + DELIVERY_GRACE_MS);
    log(`LAUNCHED heard by ${launched} of ${connected} subscribers`);

    // 4. Finishes nobody follows: the cost of a finish without its fan-out, under the same open sockets.
    if (watcher) await watcher.startSampling();
    const finish = (lesson: Lesson) =>
      request(
        `${gateway.url}/api/v1/classroom_activities/${lesson.classroomActivityId}/finish_lesson`,
        { method: 'PUT', headers: auth, body: finishLessonBody(lesson, dataset.conceptUids, lesson.students.length) },
        lesson.classroomActivityId,
        (status, body) => (status === 200 && typeof body?.follow_up_url === 'string' ? null : `${status} ${JSON.stringify(body)}`),
      );
    const warmup = dataset.reference.slice(0, Math.ceil(options.rate * WARMUP_SECONDS));
    const reference = dataset.reference.slice(warmup.length);
    log(`finishing ${warmup.length} + ${reference.length} unfollowed lessons at ${options.rate}/s (warm-up, then measured) …`);
    const warmupFinishes = await paced(warmup.length, options.rate, (i) => finish(warmup[i]!));
    const beforeReference = cpuMarks();
    const referenceFinishes = [...warmupFinishes, ...(await paced(reference.length, options.rate, (i) => finish(reference[i]!)))];
    const referencePhase = phase(beforeReference, cpuMarks());

    // 5. The measured load: followed lessons finished at a steady rate.
    const toFinish = dataset.followed.slice(0, options.seconds === undefined ? undefined : Math.ceil(options.rate * options.seconds));
    const expected = toFinish.reduce((n, lesson) => n + lesson.students.length, 0);
    log(`finishing ${toFinish.length} followed lessons at ${options.rate}/s (${expected} FINISHED events to deliver) …`);
    const beforeFinish = cpuMarks();
    const finishes = await paced(toFinish.length, options.rate, (i) => finish(toFinish[i]!));
    // A finish answered with an error committed nothing: its students are owed nothing.
    const owed = toFinish.filter((_, i) => finishes[i]!.problem === null).reduce((n, lesson) => n + lesson.students.length, 0);
    const delivered = await waitForEvents(clients, 'FINISHED', owed, Date.now() + DELIVERY_GRACE_MS);
    const finishPhase = phase(beforeFinish, cpuMarks());
    const peakRssMb = gateway.peakRssMb();
    const finalRssMb = gateway.rssMb();
    log(`${delivered} of ${owed} FINISHED events received`);

    const reports = (await Promise.all(clients.map((client) => client.ask({ type: 'report' }, 'report')))).flatMap((r) => r.subscribers);
    await cleanup();
    log('gateway and clients stopped');

    const result = analyse({
      options,
      dataset,
      reports,
      connected,
      openProblems,
      launches,
      launched,
      referenceFinishes,
      finishes,
      toFinish,
      phases: { open: openPhase, idle: idlePhase, reference: referencePhase, finish: finishPhase },
      memory: { readyRssMb, openRssMb, finalRssMb, peakRssMb },
      databaseSide,
      fresh,
      loadAtStart,
    });
    printResult(result);
    await mkdir(join(root, 'bench', 'results'), { recursive: true });
    await writeFile(RESULTS_FILE, `${JSON.stringify(result, null, 2)}\n`);
    log(`wrote ${RESULTS_FILE}`);
    if (profileDir) process.stdout.write(`\n${await summarizeProfiles(profileDir, root)}\n(profile files kept in ${profileDir})\n`);
  } finally {
    await cleanup();
    log('done');
  }
}

type Phase = { seconds: number; gatewayCpuMs: number; gatewayCpuPercent: number; clientsCpuPercent: number; benchCpuPercent: number };

function analyse(input: {
  options: Options;
  dataset: LiveDataset;
  reports: SubscriberReport[];
  connected: number;
  openProblems: string[];
  launches: Sent[];
  launched: number;
  referenceFinishes: Sent[];
  finishes: Sent[];
  toFinish: Lesson[];
  phases: { open: Phase; idle: Phase; reference: Phase; finish: Phase };
  memory: { readyRssMb: number | null; openRssMb: number | null; finalRssMb: number | null; peakRssMb: number | null };
  databaseSide: { listenerConnections: number; gatewayConnections: number; maxQueueUsage: number } | null;
  fresh: FreshDatabase;
  loadAtStart: string;
}) {
  const { options, reports, finishes, toFinish, phases, memory } = input;
  // Only the lessons whose finish succeeded (an error answer committed nothing).
  const finished = new Set(finishes.filter((sent) => sent.problem === null).map((sent) => sent.lessonId));
  const answeredAt = new Map(finishes.map((sent) => [sent.lessonId, sent.answeredAt]));
  const fromAt: number[] = [];
  const fromAnswer: number[] = [];
  const launchedFromAt: number[] = [];
  let lost = 0;
  let duplicated = 0;
  let foreign = 0;
  let endedEarly = 0;
  for (const report of reports) {
    if (report.ended) endedEarly += 1;
    const own = report.events.filter(([, , , lessonId]) => lessonId === report.lessonId);
    foreign += report.events.length - own.length;
    for (const [kind, at, received] of own) if (kind === 'LAUNCHED') launchedFromAt.push(received - at);
    const finishedEvents = own.filter(([kind]) => kind === 'FINISHED');
    if (!finished.has(report.lessonId)) {
      duplicated += finishedEvents.length; // none was due
      continue;
    }
    if (finishedEvents.length === 0) lost += 1;
    duplicated += Math.max(0, finishedEvents.length - 1);
    for (const [, at, received] of finishedEvents.slice(0, 1)) {
      fromAt.push(received - at);
      fromAnswer.push(received - answeredAt.get(report.lessonId)!);
    }
  }
  const expected = toFinish
    .filter((lesson) => finished.has(lesson.classroomActivityId))
    .reduce((n, lesson) => n + lesson.students.length, 0);
  const latency = summary(fromAt);
  const finishRequests = summary(finishes.map((sent) => sent.answeredAt - sent.sentAt));
  const measuredReference = input.referenceFinishes.length - Math.ceil(options.rate * WARMUP_SECONDS);
  const referenceCpuPerFinish = measuredReference > 0 ? phases.reference.gatewayCpuMs / measuredReference : null;
  const cpuPerFinish = finishes.length > 0 ? phases.finish.gatewayCpuMs / finishes.length : null;
  const achievedRate = finishes.length > 1 ? (finishes.length - 1) / ((finishes.at(-1)!.sentAt - finishes[0]!.sentAt) / 1_000) : null;
  const failed = [...input.launches, ...input.referenceFinishes, ...finishes].filter((sent) => sent.problem);
  const trusted = failed.length === 0 && lost === 0 && duplicated === 0 && foreign === 0;
  const checks: Check[] = [
    {
      target: `${TARGETS.subscriptions} open subscriptions on one instance`,
      pass: input.connected >= TARGETS.subscriptions && input.launched >= TARGETS.subscriptions,
      actual: `${input.connected} connected, ${input.launched} heard LAUNCHED`,
    },
    {
      target: 'every subscriber gets exactly its FINISHED event',
      pass: fromAt.length === expected && lost === 0 && duplicated === 0 && foreign === 0,
      actual: `${fromAt.length} of ${expected}; ${lost} lost, ${duplicated} extra, ${foreign} of another lesson`,
    },
    {
      target: `p99 delivery ≤ ${TARGETS.p99Ms} ms while ${TARGETS.rate} lessons end per second`,
      pass:
        trusted &&
        latency.p99 !== null &&
        latency.p99 <= TARGETS.p99Ms &&
        options.rate >= TARGETS.rate &&
        achievedRate !== null &&
        achievedRate >= TARGETS.rate * 0.95,
      actual: `p99 ${latency.p99 ?? 'n/a'} ms at ${achievedRate === null ? 'n/a' : round(achievedRate)} lessons/s`,
    },
    {
      target: `gateway resident memory ≤ ${TARGETS.rssMb} MB at ${TARGETS.subscriptions} subscriptions`,
      pass: memory.peakRssMb !== null && memory.peakRssMb <= TARGETS.rssMb && input.connected >= TARGETS.subscriptions,
      actual: `peak ${memory.peakRssMb ?? 'n/a'} MB with ${input.connected} open`,
    },
  ];
  const cpu = cpus();
  return {
    machine: {
      cpus: cpu.length,
      model: cpu[0]?.model ?? 'unknown',
      memGb: round(totalmem() / 1024 ** 3),
      node: process.version,
      date: new Date().toISOString(),
      loadAvgAtStart: input.loadAtStart,
      loadAvgAtEnd: loadavg()
        .map((n) => round(n, 2))
        .join(' '),
    },
    options: {
      ...options,
      database: input.fresh.kind,
      followedLessons: input.dataset.followed.length,
      unfollowedLessons: input.dataset.reference.length,
    },
    subscriptions: {
      connected: input.connected,
      heardLaunched: input.launched,
      endedEarly,
      openSeconds: phases.open.seconds,
      problems: input.openProblems,
    },
    delivery: {
      finishedLessons: finishes.length,
      failedFinishes: finishes.length - finished.size,
      achievedRatePerSecond: achievedRate === null ? null : round(achievedRate, 2),
      expected,
      received: fromAt.length,
      lost,
      duplicated,
      foreign,
      /** receipt (client's Date.now) − the event's `at` (the gateway's clock just before COMMIT): an upper bound of commit → receipt. */
      latencyMs: latency,
      /** receipt − the finish answer's arrival at the teacher's client (after the commit): a lower bound, negative when the event won. */
      latencyFromAnswerMs: summary(fromAnswer),
      launchedLatencyMs: summary(launchedFromAt),
      finishRequestMs: finishRequests,
    },
    gateway: {
      readyRssMb: memory.readyRssMb,
      rssMbWithAllOpen: memory.openRssMb,
      finalRssMb: memory.finalRssMb,
      peakRssMb: memory.peakRssMb,
      kbPerSubscription:
        memory.openRssMb !== null && memory.readyRssMb !== null && input.connected > 0
          ? round(((memory.openRssMb - memory.readyRssMb) * 1024) / input.connected, 1)
          : null,
      /** Connect, authenticate, subscribe: the gateway's CPU in the open phase per subscription. */
      cpuMsPerSubscriptionOpened: input.connected > 0 ? round(phases.open.gatewayCpuMs / input.connected, 2) : null,
      idleCpuPercent: phases.idle.gatewayCpuPercent,
      cpuMsPerFinishUnfollowed: referenceCpuPerFinish === null ? null : round(referenceCpuPerFinish, 2),
      cpuMsPerFinishFollowed: cpuPerFinish === null ? null : round(cpuPerFinish, 2),
      /** The gateway's CPU in the finish phase divided by the events it delivered (the finish requests included). */
      cpuMsPerEventDelivered: fromAt.length > 0 ? round(phases.finish.gatewayCpuMs / fromAt.length, 3) : null,
      /** The fan-out alone: (CPU per followed finish − per unfollowed finish) / subscribers per lesson. */
      fanOutCpuMsPerEvent:
        cpuPerFinish !== null && referenceCpuPerFinish !== null
          ? round((cpuPerFinish - referenceCpuPerFinish) / options.perLesson, 3)
          : null,
    },
    phases,
    database: input.databaseSide,
    failedRequests: failed.length,
    failedRequestSamples: failed.slice(0, 5).map((sent) => sent.problem),
    targets: checks,
  };
}

function printResult(result: ReturnType<typeof analyse>): void {
  const { delivery: d, gateway: g, phases: p } = result;
  const ms = (s: { p50: number | null; p99: number | null; max: number | null }) => `p50 ${s.p50} / p99 ${s.p99} / max ${s.max} ms`;
  const lines = [
    `subscriptions: ${result.subscriptions.connected} open (opened in ${result.subscriptions.openSeconds} s), ${result.subscriptions.heardLaunched} heard LAUNCHED, ${result.subscriptions.endedEarly} ended early`,
    `finishes: ${d.finishedLessons} lessons sent at ${d.achievedRatePerSecond}/s, ${d.failedFinishes} failed; FINISHED received ${d.received} of ${d.expected} (${d.lost} lost, ${d.duplicated} extra)`,
    `delivery latency, receipt − at (commit):      ${ms(d.latencyMs)}`,
    `delivery latency, receipt − finish answered:  ${ms(d.latencyFromAnswerMs)}`,
    `LAUNCHED latency, receipt − at:               ${ms(d.launchedLatencyMs)}`,
    `finish request (teacher):                     ${ms(d.finishRequestMs)}`,
    `gateway RSS: ready ${g.readyRssMb} MB, all open ${g.rssMbWithAllOpen} MB (${g.kbPerSubscription} kB per subscription), peak ${g.peakRssMb} MB`,
    `gateway CPU: ${g.cpuMsPerSubscriptionOpened} ms per subscription opened; idle with all open ${g.idleCpuPercent}% of a core; per finish ${g.cpuMsPerFinishUnfollowed} ms unfollowed, ${g.cpuMsPerFinishFollowed} ms followed; per event delivered ${g.cpuMsPerEventDelivered} ms (fan-out alone ${g.fanOutCpuMsPerEvent} ms)`,
    `CPU % of a core (gateway / clients / bench): open ${p.open.gatewayCpuPercent} / ${p.open.clientsCpuPercent} / ${p.open.benchCpuPercent}, finish ${p.finish.gatewayCpuPercent} / ${p.finish.clientsCpuPercent} / ${p.finish.benchCpuPercent}`,
    result.database
      ? `database: ${result.database.listenerConnections} listening connection(s) of the gateway's ${result.database.gatewayConnections} (all sockets open), NOTIFY queue peak use ${result.database.maxQueueUsage}`
      : 'database: embedded PGlite (notifications in-process)',
    `failed requests: ${result.failedRequests}${result.failedRequestSamples.length ? ` (${result.failedRequestSamples.join('; ')})` : ''}`,
    `load average: ${result.machine.loadAvgAtStart} at start, ${result.machine.loadAvgAtEnd} at end`,
    '',
    'Targets:',
    ...result.targets.map((check) => `  ${check.pass ? 'PASS' : 'FAIL'}  ${check.target}  (${check.actual})`),
  ];
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
