// Builds the viewer into the Python package (python/ackclock/view/static), so
// that `pip install` needs no node. `--check` fails if the committed files are
// not what the sources build to; `--tests` bundles the tests for node --test.
// The bundle's first line holds a digest of its sources, which the Python
// tests compare without node (tests/test_view_bundle.py).

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'python', 'ackclock', 'view', 'static');

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** sha256 over each source's path (relative to viewer/) and bytes, in path order. */
export function sourceDigest() {
  const sources = [...files(join(here, 'src')), ...['index.html', 'style.css', 'build.mjs', 'package-lock.json'].map((f) => join(here, f))]
    .map((f) => relative(here, f).split('\\').join('/'))
    .sort();
  const hash = createHash('sha256');
  for (const path of sources) {
    hash.update(path + '\0');
    hash.update(readFileSync(join(here, path)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

async function bundle() {
  const result = await esbuild.build({
    entryPoints: [join(here, 'src', 'main.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    legalComments: 'none',
    write: false,
  });
  const js = `// ackclock viewer, built from viewer/ (npm run build); sources sha256 ${sourceDigest()}\n${result.outputFiles[0].text}`;
  return {
    'viewer.js': js,
    'viewer.css': readFileSync(join(here, 'style.css'), 'utf8'),
    'index.html': readFileSync(join(here, 'index.html'), 'utf8'),
  };
}

async function buildTests() {
  const tests = readdirSync(join(here, 'test')).filter((f) => f.endsWith('.test.ts'));
  await esbuild.build({
    entryPoints: tests.map((f) => join(here, 'test', f)),
    bundle: true,
    platform: 'node',
    format: 'esm',
    outdir: join(here, 'build-test'),
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
}

const mode = process.argv[2];
if (mode === '--tests') {
  await buildTests();
} else {
  const built = await bundle();
  if (mode === '--check') {
    const stale = Object.keys(built).filter((name) => {
      try {
        return readFileSync(join(out, name), 'utf8') !== built[name];
      } catch {
        return true;
      }
    });
    if (stale.length > 0) {
      console.error(`python/ackclock/view/static is stale (${stale.join(', ')}): run npm run build in viewer/`);
      process.exit(1);
    }
    console.log('python/ackclock/view/static is up to date');
  } else {
    mkdirSync(out, { recursive: true });
    for (const [name, text] of Object.entries(built)) writeFileSync(join(out, name), text);
    console.log(`built ${Object.keys(built).join(', ')} into ${relative(process.cwd(), out)}`);
  }
}
