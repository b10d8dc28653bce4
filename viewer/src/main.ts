// Entry point: the index comes inlined (an exported page) or from the local
// server; the page then exposes `window.ackclockView` for tests.

import { App } from './app';
import { HttpSource, MemorySource, Source, Trace } from './source';

declare global {
  interface Window {
    ackclockView: { ready: Promise<App> };
  }
}

async function inlined(element: HTMLElement): Promise<Source> {
  const response = await fetch(`data:application/octet-stream;base64,${element.textContent?.trim() ?? ''}`);
  return new MemorySource(await response.arrayBuffer());
}

async function start(): Promise<App> {
  const embedded = document.getElementById('ackclock-index');
  const source = embedded ? await inlined(embedded) : new HttpSource('index');
  const title = document.body.dataset.title ?? 'ackclock view';
  const app = new App(await Trace.open(source), title);
  await app.seek(app.header.t_first);
  return app;
}

window.ackclockView = {
  ready: start().catch((error: unknown) => {
    document.getElementById('info')!.textContent = `Cannot show this trace: ${String(error)}`;
    throw error;
  }),
};
