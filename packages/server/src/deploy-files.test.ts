// The deployment files held to the README and the server: the Dockerfile builds in stages and runs the
// built server with node, unprivileged, with its data in the volume, on the README's port, and its health
// check passes against a running server and fails without one; docker-compose.yml starts Sluice once
// PostgreSQL is healthy and points it at its PostgreSQL and Redis; the systemd unit runs the same entry
// point, hardened, and outlasts the drain. Every setting they use is one the README documents. Docker's
// and systemd's own checkers run too where they are installed (none of them pulls an image).
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from 'dockerfile-utils';
import { parse as parseYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freePort } from './test-support/server-process.js';
import { createTestApp } from './test-support/test-app.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const DOCKERFILE = read('Dockerfile');
const README = read('README.md');
const DEPLOY_DOC = read('docs/deploy.md');
const UNIT = read('docs/sluice.service');

/** Names outside the README's table that the files may set: Node's convention, read by libraries. */
const STANDARD_NAMES = new Set(['NODE_ENV']);
/** main.ts exits by itself at most this long after the SHUTDOWN_TIMEOUT drain (writing the billing). */
const EXIT_MARGIN_SECONDS = 15;

/** The README's Configuration table: variable → default, backticks removed. */
function readmeSettings(): Map<string, string> {
  const lines = README.split('\n');
  const start = lines.indexOf('| Variable | Default | Meaning |');
  if (start < 0) throw new Error('the README has no Configuration table');
  const settings = new Map<string, string>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [name = '', value = ''] = line
      .split('|')
      .slice(1, 3)
      .map((c) => c.trim().replace(/`/g, ''));
    settings.set(name, value);
  }
  return settings;
}
const SETTINGS = readmeSettings();
const undocumented = (names: Iterable<string>) =>
  [...names].filter((name) => !SETTINGS.has(name) && !STANDARD_NAMES.has(name));
const setting = (name: string) => {
  const value = SETTINGS.get(name);
  if (value === undefined) throw new Error(`the README does not list ${name}`);
  return value;
};

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile → stages of instructions (continuation lines joined, comments dropped). */
function dockerStages(text: string): Instruction[][] {
  const stages: Instruction[][] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && pending === '')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(pending + line) ?? [];
    pending = '';
    if (keyword.toUpperCase() === 'FROM') stages.push([]);
    stages.at(-1)?.push({ keyword: keyword.toUpperCase(), args: args.trim() });
  }
  return stages;
}

const execForm = z.array(z.string()).min(1);
/** `["node", "x.js"]` → its arguments; a shell-form command fails the test. */
const execArgs = (args: string): string[] => execForm.parse(JSON.parse(args));
/** `A=1 B=2` (or the old `A 1`) → the names and values an ENV sets. */
function envOf(args: string): Map<string, string> {
  const pairs = [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)];
  if (pairs.length === 0) {
    const [name = '', ...value] = args.split(/\s+/);
    return new Map([[name, value.join(' ')]]);
  }
  return new Map(pairs.map(([, name = '', value = '']) => [name, value.replace(/^"|"$/g, '')]));
}

type Run = { code: number; stdout: string; stderr: string };
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { env, cwd: ROOT, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 127) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const spawnSyncOk = (command: string, args: string[]) =>
  spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 }).status === 0;

describe('the Dockerfile', () => {
  const stages = dockerStages(DOCKERFILE);
  const final = stages.at(-1) ?? [];
  const all = (stage: Instruction[], keyword: string) => stage.filter((i) => i.keyword === keyword);
  const one = (keyword: string) => {
    const found = all(final, keyword);
    expect(found.map((i) => i.keyword)).toEqual([keyword]);
    return found[0]?.args ?? '';
  };
  const finalEnv = new Map(all(final, 'ENV').flatMap((i) => [...envOf(i.args)]));
  const workdir = all(final, 'WORKDIR').at(-1)?.args ?? '/';

  it('passes the Dockerfile linter without a remark', () => {
    const remarks = validate(DOCKERFILE).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    expect(remarks).toEqual([]);
  });

  it('builds in one stage and runs from another on Debian Node images no older than the engines field', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const engines = z
      .object({ engines: z.object({ node: z.string() }) })
      .parse(JSON.parse(read('package.json')));
    const minMajor = Number(/(\d+)/.exec(engines.engines.node)?.[1]);
    for (const stage of stages) {
      const image = stage[0]?.args.split(/\s+/)[0] ?? '';
      const [, major, variant = ''] = /^node:(\d+)-?(.*)$/.exec(image) ?? [];
      expect(Number(major), image).toBeGreaterThanOrEqual(minMajor);
      // better-sqlite3 ships prebuilt binaries for glibc only: Alpine would need a compiler.
      expect(variant, image).toMatch(/^(bookworm|trixie)(-slim)?$/);
    }
  });

  it("runs the built server with node and npm start's flags, in exec form, as a user other than root", () => {
    const server = z.object({ main: z.string() }).parse(JSON.parse(read('packages/server/package.json')));
    const main = posix.join('packages/server', server.main);
    const { scripts } = z
      .object({ scripts: z.object({ start: z.string() }) })
      .parse(JSON.parse(read('package.json')));
    const [, node = ''] = /^exec (node (?:--\S+ )*\S+)$/.exec(scripts.start) ?? [];
    expect(node.split(' ').at(-1)).toBe(main);
    expect(execArgs(one('CMD'))).toEqual(node.split(' '));
    expect(all(final, 'ENTRYPOINT')).toEqual([]);
    const user = all(final, 'USER').at(-1)?.args.split(':')[0] ?? 'root';
    expect(['root', '0']).not.toContain(user);
    expect(all(final, 'STOPSIGNAL').map((i) => i.args)).toEqual(['SIGTERM']);
  });

  it('holds only production dependencies and built files in the image it runs', () => {
    const copies = all(final, 'COPY').map((i) => i.args.split(/\s+/));
    const fromBuild = copies.filter((words) => words[0]?.startsWith('--from='));
    // From the build stage: the built folders only, where the server looks for them (the console's
    // first-paint renderer beside the console, see http/first-paints.ts).
    expect(fromBuild.map((words) => words.at(-1)).sort()).toEqual(
      [
        'packages/shared/dist',
        'packages/server/dist',
        setting('WEB_DIST'),
        `${setting('WEB_DIST')}-first-paint`,
      ].sort(),
    );
    expect(fromBuild.every((words) => /\/dist(-first-paint)?$/.test(words.at(-2) ?? ''))).toBe(true);
    // From the context: package manifests only, no sources.
    const manifests = copies
      .filter((words) => !words[0]?.startsWith('--'))
      .flatMap((words) => words.slice(0, -1));
    expect(
      manifests.filter((path) => !/(^|\/)(package\.json|package-lock\.json|\.npmrc)$/.test(path)),
    ).toEqual([]);
    expect(all(final, 'RUN').some((i) => /npm ci\b.*--omit=dev/.test(i.args))).toBe(true);
  });

  it("exposes the README's default port and keeps the SQLite file in the declared volume", () => {
    expect(one('EXPOSE')).toBe(setting('PORT'));
    expect(finalEnv.get('PORT') ?? setting('PORT')).toBe(setting('PORT'));
    const sqlitePath = finalEnv.get('SQLITE_PATH') ?? posix.join(workdir, setting('SQLITE_PATH'));
    expect(posix.isAbsolute(sqlitePath)).toBe(true);
    expect(one('VOLUME')).toBe(posix.dirname(sqlitePath));
    expect(
      all(final, 'RUN').some((i) => i.args.includes(`chown`) && i.args.includes(posix.dirname(sqlitePath))),
    ).toBe(true);
  });

  it('sets only settings the README documents', () => {
    const names = stages.flatMap((stage) => all(stage, 'ENV').flatMap((i) => [...envOf(i.args).keys()]));
    expect(undocumented(names)).toEqual([]);
  });

  describe('its health check', () => {
    /** HEALTHCHECK [--flags] CMD ["node", …] → the flags and the command. */
    const healthCheck = () => {
      const [, flags = '', command = ''] = /^((?:--\S+\s+)*)CMD\s+(.*)$/.exec(one('HEALTHCHECK')) ?? [];
      return { flags, args: execArgs(command) };
    };
    const runHealthCheck = (port: number) =>
      // `node` as the image's: this process's own binary, whatever PATH says.
      run(process.execPath, healthCheck().args.slice(1), {
        ...process.env,
        ...Object.fromEntries(finalEnv),
        PORT: String(port),
      });
    let close: (() => Promise<void>) | undefined;
    afterAll(async () => close?.());

    it('asks /healthz with node, in a few seconds at most', () => {
      const { flags, args } = healthCheck();
      expect(args[0]).toBe('node');
      expect(args.join(' ')).toContain('/healthz');
      expect(flags).toMatch(/--timeout=\d+s/);
    });

    it("passes while the server answers on the container's PORT and fails when nothing does", async () => {
      const t = await createTestApp();
      close = () => t.close();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      expect(await runHealthCheck(port)).toMatchObject({ code: 0 });
      await t.close();
      close = undefined;
      expect((await runHealthCheck(port)).code).not.toBe(0);
      expect((await runHealthCheck(await freePort())).code).not.toBe(0);
    });
  });

  it('has every file it copies in the build context, and none of what it builds itself', () => {
    const patterns = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    // Docker's rules, as far as these patterns use them: `**/` any folders, `*` within one name, and a
    // pattern that matches a folder leaves out everything in it.
    const glob = (pattern: string) =>
      pattern.replace(/\*\*\/|\*|[.+^${}()|[\]\\?]/g, (token) =>
        token === '**/' ? '(.*/)?' : token === '*' ? '[^/]*' : `\\${token}`,
      );
    const regexes = patterns.map((p) => new RegExp(`^${glob(p)}(/.*)?$`));
    const ignored = (path: string) => regexes.some((r) => r.test(path));
    const sources = stages
      .flatMap((stage) => all(stage, 'COPY'))
      .filter((i) => !i.args.startsWith('--from='))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1))
      .map((path) => path.replace(/\/$/, ''));
    expect(sources.filter(ignored)).toEqual([]);
    const stale = [
      'node_modules/fastify/package.json',
      'packages/server/dist/sluice.js',
      // A stale build record without its dist would make `tsc -b` build nothing.
      'packages/server/tsconfig.tsbuildinfo',
      'data/sluice.db',
      '.env',
    ];
    expect(stale.filter((path) => !ignored(path))).toEqual([]);
  });
});

const service = z.object({
  image: z.string().optional(),
  build: z.string().optional(),
  environment: z.record(z.string(), z.string()).default({}),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).default({}),
  ports: z.array(z.string()).default([]),
  volumes: z.array(z.string()).default([]),
  healthcheck: z.object({ test: z.array(z.string()).min(2) }).optional(),
  stop_grace_period: z.string().optional(),
});
const composeFile = z.object({
  services: z.object({ sluice: service, postgres: service, redis: service }).catchall(service),
  volumes: z.record(z.string(), z.null()).default({}),
});
/** Variables each image documents for itself (the postgres image's first-start settings). */
const IMAGE_NAMES: Record<string, string[]> = {
  postgres: ['POSTGRES_USER', 'POSTGRES_DB', 'POSTGRES_PASSWORD'],
};
/** `${NAME}`, `${NAME:?message}`, `${NAME:-default}`: what compose takes from the .env file. */
const INTERPOLATION = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:[:?-][^}]*)?\}/g;
/** `45s`, `1m30s` → seconds. */
const seconds = (duration: string) =>
  [...duration.matchAll(/(\d+)(h|m|s)/g)].reduce(
    (sum, [, n = '0', unit]) => sum + Number(n) * (unit === 'h' ? 3600 : unit === 'm' ? 60 : 1),
    0,
  );

describe('docker-compose.yml', () => {
  const text = read('docker-compose.yml');
  const compose = composeFile.parse(parseYaml(text));
  const { sluice, postgres, redis } = compose.services;
  const filled = (value: string) =>
    value.replace(INTERPOLATION, (_, name: string) => `${name.toLowerCase()}-value`);
  const volumeOf = (dockerfile: string) => {
    const volume = dockerStages(dockerfile)
      .at(-1)
      ?.find((i) => i.keyword === 'VOLUME')?.args;
    return volume ?? '';
  };

  it('builds Sluice from the Dockerfile and publishes its port', () => {
    expect(sluice.build).toBe('.');
    expect(sluice.ports).toEqual([`${setting('PORT')}:${setting('PORT')}`]);
    expect(sluice.volumes.map((v) => v.split(':')[1])).toContain(volumeOf(DOCKERFILE));
  });

  it('starts Sluice once PostgreSQL and Redis pass their health checks', () => {
    expect(sluice.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    expect(postgres.healthcheck?.test.slice(0, 2)).toEqual(['CMD', 'pg_isready']);
    expect(redis.healthcheck?.test.slice(0, 3)).toEqual(['CMD', 'redis-cli', 'ping']);
    // PostgreSQL's data outlives the container, in a volume the file declares.
    const [volume = '', target] = postgres.volumes[0]?.split(':') ?? [];
    expect(target).toBe('/var/lib/postgresql/data');
    expect(Object.keys(compose.volumes)).toContain(volume);
  });

  it("points SQL_DSN at the postgres service's database and REDIS_CONN_STRING at the redis service", () => {
    const dsn = new URL(filled(sluice.environment.SQL_DSN ?? ''));
    expect(dsn.protocol).toBe('postgres:');
    expect(dsn.hostname).toBe('postgres');
    expect(dsn.username).toBe(postgres.environment.POSTGRES_USER);
    expect(dsn.password).toBe(filled(postgres.environment.POSTGRES_PASSWORD ?? ''));
    expect(dsn.pathname).toBe(`/${postgres.environment.POSTGRES_DB}`);
    expect(postgres.healthcheck?.test).toEqual(
      expect.arrayContaining([postgres.environment.POSTGRES_USER, postgres.environment.POSTGRES_DB]),
    );
    const redisUrl = new URL(sluice.environment.REDIS_CONN_STRING ?? '');
    expect(redisUrl.protocol).toBe('redis:');
    expect(redisUrl.hostname).toBe('redis');
  });

  it('takes the secrets from the .env file, refusing to start without them, and documents each', () => {
    expect(sluice.environment.SESSION_SECRET).toMatch(/^\$\{SESSION_SECRET:\?[^}]+\}$/);
    expect(postgres.environment.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?[^}]+\}$/);
    const variables = new Set([...text.matchAll(INTERPOLATION)].map(([, name = '']) => name));
    expect([...variables].filter((name) => !DEPLOY_DOC.includes(`${name}=`))).toEqual([]);
  });

  it('sets only settings the README (or the image in question) documents', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      const own = IMAGE_NAMES[name] ?? [];
      expect(undocumented(Object.keys(s.environment).filter((n) => !own.includes(n))), name).toEqual([]);
    }
  });

  it("gives Sluice longer to stop than its drain, SHUTDOWN_TIMEOUT's default, takes", () => {
    const needed = Number(setting('SHUTDOWN_TIMEOUT')) + EXIT_MARGIN_SECONDS;
    expect(seconds(sluice.stop_grace_period ?? '10s')).toBeGreaterThan(needed);
  });

  // Compose's own check where compose is installed (`docker compose` or Debian's docker-compose); it
  // needs neither images nor a daemon. Skipped where neither is installed: the checks above still run.
  const composeCli = [['docker', 'compose'], ['docker-compose']].find(([command = '', ...sub]) =>
    spawnSyncOk(command, [...sub, 'version']),
  );
  it.skipIf(!composeCli)('is valid to docker compose, which refuses it without the secrets', async () => {
    const [command = '', ...sub] = composeCli ?? [];
    const dir = mkdtempSync(join(tmpdir(), 'sluice-compose-'));
    try {
      // An empty env file, so a developer's own .env does not fill the secrets in.
      const empty = join(dir, 'empty.env');
      writeFileSync(empty, '');
      const config = [...sub, '--env-file', empty, '-f', join(ROOT, 'docker-compose.yml'), 'config', '-q'];
      const { SESSION_SECRET: _s, POSTGRES_PASSWORD: _p, ...env } = process.env;
      const refused = await run(command, config, env);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/SESSION_SECRET|POSTGRES_PASSWORD/);
      const given = await run(command, config, {
        ...env,
        SESSION_SECRET: 'x'.repeat(32),
        POSTGRES_PASSWORD: 'pw',
      });
      expect(given).toMatchObject({ code: 0, stderr: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A unit file → `Section.Key` → every value given (comments and blank lines dropped). */
function unitSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1] ?? '';
      continue;
    }
    const at = line.indexOf('=');
    const key = `${section}.${line.slice(0, at).trim()}`;
    settings.set(key, [...(settings.get(key) ?? []), line.slice(at + 1).trim()]);
  }
  return settings;
}

describe('the systemd unit (docs/sluice.service)', () => {
  const unit = unitSettings(UNIT);
  const only = (key: string) => {
    const values = unit.get(`Service.${key}`) ?? [];
    expect(values, key).toHaveLength(1);
    return values[0] ?? '';
  };
  const environment = new Map(
    (unit.get('Service.Environment') ?? []).flatMap((value) => [...envOf(value.replace(/"/g, ''))]),
  );

  it("starts the built server with node from a checkout, as the image's CMD does, as its own user", () => {
    const [node = '', ...args] = only('ExecStart').split(/\s+/);
    expect(posix.isAbsolute(node) && posix.basename(node)).toBe('node');
    const cmd = dockerStages(DOCKERFILE)
      .at(-1)
      ?.find((i) => i.keyword === 'CMD');
    expect(['node', ...args]).toEqual(execArgs(cmd?.args ?? '[]'));
    expect(posix.isAbsolute(only('WorkingDirectory'))).toBe(true);
    expect(['', 'root', '0']).not.toContain(only('User'));
    expect(only('EnvironmentFile')).toMatch(/^-?\//);
    expect(only('Restart')).toBe('on-failure');
  });

  it('may write only the folder its SQLite file is in, and cannot gain privileges', () => {
    expect(only('ProtectSystem')).toBe('strict');
    expect(only('NoNewPrivileges')).toBe('true');
    const sqlitePath = environment.get('SQLITE_PATH') ?? '';
    expect(posix.isAbsolute(sqlitePath)).toBe(true);
    expect(only('ReadWritePaths').split(/\s+/)).toContain(posix.dirname(sqlitePath));
  });

  it('stops with SIGTERM and waits longer than the drain before it kills', () => {
    expect(only('KillSignal')).toBe('SIGTERM');
    const drain = Number(environment.get('SHUTDOWN_TIMEOUT') ?? setting('SHUTDOWN_TIMEOUT'));
    expect(Number(only('TimeoutStopSec'))).toBeGreaterThan(drain + EXIT_MARGIN_SECONDS);
  });

  it('sets only settings the README documents', () => {
    expect(undocumented(environment.keys())).toEqual([]);
  });

  // systemd's own parser where it is installed; it needs no running systemd. Skipped elsewhere: the
  // checks above still run. Only its remarks on the file's own lines count: a missing /usr/bin/node or
  // user `sluice` on this machine says nothing about the file.
  it.skipIf(!spawnSyncOk('systemd-analyze', ['--version']))(
    'has no line systemd-analyze rejects',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sluice-unit-'));
      try {
        const file = join(dir, 'sluice.service');
        writeFileSync(file, UNIT);
        const { stdout, stderr } = await run('systemd-analyze', ['verify', file]);
        const remarks = `${stdout}\n${stderr}`.split('\n').filter((line) => line.startsWith(`${file}:`));
        expect(remarks).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('the README', () => {
  it('sends operators to docs/deploy.md, which covers the image, compose, the unit, backups and upgrades', () => {
    expect(README).toMatch(/\]\(docs\/deploy\.md\)/);
    for (const topic of [
      'docker run',
      'docker compose up',
      'docs/sluice.service',
      'pg_dump',
      '.backup',
      'migrations',
    ]) {
      expect(DEPLOY_DOC, topic).toContain(topic);
    }
  });
});
