import { existsSync, mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Listening, listen } from '@a2a/adapter-testsuite';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUi } from '../../../packages/playground/test/build-ui.js';
import { type RemoteAgent, startRemoteAgent } from '../../../packages/playground/test/servers.js';
import { createApp } from '../src/server.js';

// The playground in headless Chromium (Debian's `chromium`, installed by .ci/run) against the real Express demo.
// Screenshots for the playground's README are taken here too (packages/playground/docs/).

const CHROMIUM = process.env.A2A_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI) throw new Error(`CI=true but no Chromium at ${CHROMIUM} (.ci/run installs it)`);
// The README's screenshots: refreshed with A2A_UPDATE_SCREENSHOTS=1; other runs still take them, into a temp folder.
const DOCS = process.env.A2A_UPDATE_SCREENSHOTS
  ? fileURLToPath(new URL('../../../packages/playground/docs/', import.meta.url))
  : `${mkdtempSync(join(tmpdir(), 'a2a-playground-'))}/`;

let server: Listening | undefined;
let base: string;
let agent: RemoteAgent;
let browser: Browser;

beforeAll(async () => {
  if (!haveChromium) return;
  buildUi();
  // The demo's playground reads its allow list from the environment: the test's "remote" agent is on 127.0.0.1.
  process.env.A2A_PLAYGROUND_ALLOW = '127.0.0.1';
  agent = await startRemoteAgent();
  server = await listen(createApp({ lineDelayMs: 400 }));
  base = server.url;
  browser = await chromium.launch({ executablePath: CHROMIUM });
});

afterAll(async () => {
  if (!haveChromium) return;
  delete process.env.A2A_PLAYGROUND_ALLOW;
  await browser?.close();
  await server?.close();
  await agent?.close();
});

/** A fresh page (own sessionStorage), connected to the demo's own agent. */
async function openPlayground(width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${base}/playground`);
  await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^Connected/);
  return page;
}

const timeline = (page: Page) => page.getByRole('log', { name: 'Timeline' });
const rows = (page: Page, text: string) => timeline(page).getByRole('listitem').filter({ hasText: text });
const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation' });

/** The chat's bubbles in order: who wrote each (user, agent, artifact) and its paragraphs. */
const bubbles = (page: Page) =>
  conversation(page).evaluate((log) =>
    [...log.children].map((li) => ({
      from: /msg-(\w+)/.exec(li.className)?.[1],
      text: [...li.querySelectorAll('p')].map((p) => p.textContent),
    })),
  );

const poemAbout = (topic: string) =>
  [
    `Of ${topic} I sing, in lines that stream,`,
    'each one sent out the moment it is ready,',
    'a task that asked, then listened, then began,',
    `and ends here, with ${topic} held steady.`,
  ]
    .map((line) => `${line}\n`)
    .join('');

async function send(page: Page, text: string, stream = true) {
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
  await page.getByRole('checkbox', { name: 'Stream' }).setChecked(stream);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

async function connectTo(page: Page, url: string) {
  await page.getByRole('textbox', { name: 'Agent address or card URL' }).fill(url);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
}

const connected = (page: Page) =>
  expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^Connected/);
const taskIdOn = async (page: Page) => /Task (\S+):/.exec((await page.locator('#task-info').textContent()) ?? '')?.[1];
const resubscribeButton = (page: Page) => page.getByRole('button', { name: 'Resubscribe' });

/** The task's state as the agent at `url` has it (GetTask from here, not through the page). */
async function stateAt(url: string, id: string): Promise<string> {
  const response = await fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id } }),
  });
  return ((await response.json()) as { result: { status: { state: string } } }).result.status.state;
}

/** The echo agent's "hold" task, in the chat as the page shows it once it has ended. */
const heldToTheEnd = [
  { from: 'user', text: ['hold'] },
  { from: 'agent', text: ['Holding…'] },
  { from: 'artifact', text: ['first half, second half'] },
  { from: 'agent', text: ['Released.'] },
];

describe.skipIf(!haveChromium)('the playground in Chromium', () => {
  it("connects to the demo's own agent and renders its card", async () => {
    const page = await openPlayground();
    const card = page.getByRole('region', { name: 'Agent card' });
    await expect.poll(() => card.textContent()).toContain('Poet');
    expect(await card.textContent()).toContain('Valid A2A 1.0 card');
    expect(await card.getByLabel('Signature status').textContent()).toMatch(/Not signed/);
    await page.context().close();
  });

  it('streams: artifact chunks reach the timeline live, before the task completes; the wire log exports', async () => {
    const page = await openPlayground();
    // Which DOM mutation batch each timeline row arrived in: rows of one answer arrive together, streamed ones apart.
    await timeline(page).evaluate((log) => {
      const arrivals: { batch: number; text: string }[] = [];
      let batch = 0;
      new MutationObserver((mutations) => {
        batch++;
        for (const m of mutations) for (const n of m.addedNodes) arrivals.push({ batch, text: n.textContent ?? '' });
      }).observe(log, { childList: true });
      (window as unknown as { arrivals: typeof arrivals }).arrivals = arrivals;
    });
    await send(page, 'write a poem about the sea');
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    const arrivals = await page.evaluate(
      () => (window as unknown as { arrivals: { batch: number; text: string }[] }).arrivals,
    );
    const chunks = arrivals.filter((a) => a.text.includes('artifact chunk'));
    const completed = arrivals.find((a) => a.text.includes('TASK_STATE_COMPLETED'));
    expect(chunks).toHaveLength(4);
    expect(new Set(chunks.map((c) => c.batch)).size).toBe(4);
    // The first chunk was on screen before the task completed (the last chunk and COMPLETED leave together).
    expect(Math.min(...chunks.map((c) => c.batch))).toBeLessThan(completed?.batch ?? 0);
    expect(await rows(page, 'TASK_STATE_WORKING').count()).toBe(1);
    // Every streamed row carries its sequence number (the SSE id).
    const seqs = await timeline(page).locator('.seq').allTextContents();
    expect(seqs.every((s) => /^#\d+$/.test(s))).toBe(true);
    expect(await conversation(page).textContent()).toContain('with the sea held steady');

    await page.screenshot({ path: `${DOCS}playground.png`, fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export wire log' }).click(),
    ]);
    const log = JSON.parse(await readFile((await download.path()) as string, 'utf8')) as {
      kind: string;
      body?: string;
    }[];
    expect(log.filter((e) => e.kind === 'sse')).toHaveLength(7); // task, working, 4 chunks, completed
    expect(log.some((e) => e.kind === 'request' && e.body?.includes('SendStreamingMessage'))).toBe(true);
    await page.context().close();
  });

  it('continues an input-required task with the next message', async () => {
    const page = await openPlayground();
    await send(page, 'a poem please', false);
    await rows(page, 'TASK_STATE_INPUT_REQUIRED').waitFor();
    const info = await page.locator('#task-info').textContent();
    expect(info).toContain('your next message answers it');
    const taskId = /Task (\S+):/.exec(info ?? '')?.[1];
    await send(page, 'autumn leaves');
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    // Same task: the timeline kept the question, and the task id did not change.
    expect(await timeline(page).getByRole('listitem').first().textContent()).toContain('TASK_STATE_INPUT_REQUIRED');
    // The answer's stream starts with the task as it was, still input-required: the timeline says so once.
    expect(await rows(page, 'TASK_STATE_INPUT_REQUIRED').count()).toBe(1);
    expect(await page.locator('#task-info').textContent()).toContain(`Task ${taskId}: Completed`);
    expect(await conversation(page).textContent()).toContain('autumn leaves held steady');
    // The answer's stream starts with the task as it was, question included: the chat shows the question once.
    expect(await bubbles(page)).toEqual([
      { from: 'user', text: ['a poem please'] },
      { from: 'agent', text: ['What should the poem be about?'] },
      { from: 'user', text: ['autumn leaves'] },
      { from: 'agent', text: ['Writing a poem about autumn leaves…'] },
      { from: 'artifact', text: [poemAbout('autumn leaves')] },
      { from: 'agent', text: ['Here is your poem about autumn leaves.'] },
    ]);
    await page.context().close();
  });

  it('shows an input-required question once when the question and the answer both stream', async () => {
    const page = await openPlayground();
    await send(page, 'a poem please');
    await rows(page, 'TASK_STATE_INPUT_REQUIRED').first().waitFor();
    // The answer goes in the message box: it has the focus back (Send was clicked) and says what it is for.
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    expect(await box.evaluate((e) => e === document.activeElement)).toBe(true);
    expect(await box.getAttribute('placeholder')).toBe('Your answer to Poet');
    await send(page, 'the moon');
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    const texts = (await bubbles(page)).map((b) => b.text.join('\n'));
    expect(texts.filter((t) => t === 'What should the poem be about?')).toHaveLength(1);
    expect(texts).toEqual([
      'a poem please',
      'What should the poem be about?',
      'the moon',
      'Writing a poem about the moon…',
      poemAbout('the moon'),
      'Here is your poem about the moon.',
    ]);
    await page.context().close();
  });

  it('joins streamed chunks as the agent sent them: appended text exactly, separate artifacts and parts apart', async () => {
    const page = await openPlayground();
    await connectTo(page, `${agent.url}/.well-known/agent-card.json`); // the echo agent's "letter"
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^Connected/);
    const letter = [
      { from: 'artifact', text: ['Dear friend,\nall is well.'] }, // 'Dear friend,\n' + 'all is ' + 'well.'
      { from: 'artifact', text: ['P.S. see you soon'] },
      { from: 'agent', text: ['Signed,', 'the echo'] }, // one message, two parts: two paragraphs
    ];
    await send(page, 'letter');
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    expect(await bubbles(page)).toEqual([
      { from: 'user', text: ['letter'] },
      { from: 'agent', text: ['Drafting…'] },
      ...letter,
    ]);
    expect(await conversation(page).getByRole('listitem').nth(2).textContent()).toContain('letter.txt');
    // Without streaming the answer is the finished task: the same artifacts (its appended parts joined the same way).
    await page.getByRole('button', { name: 'New session' }).click();
    await send(page, 'letter', false);
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    expect(await bubbles(page)).toEqual([{ from: 'user', text: ['letter'] }, ...letter]);
    await page.context().close();
  });

  it('cancels a running task', async () => {
    const page = await openPlayground();
    await send(page, 'write a poem about time');
    await rows(page, 'artifact chunk').first().waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await rows(page, 'TASK_STATE_CANCELED').first().waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Cancel', exact: true }).isDisabled()).toBe(true);
    // The chat's last word on the task is its real state, not the "Working" it said before; nothing to resubscribe to.
    await expect.poll(() => conversation(page).locator('.badge').last().textContent()).toBe('Canceled');
    expect(await resubscribeButton(page).isDisabled()).toBe(true);
    expect(await rows(page, 'TASK_STATE_COMPLETED').count()).toBe(0);
    expect(await rows(page, 'artifact chunk').count()).toBeLessThan(4);
    await page.context().close();
  });

  it('after a reload, Resubscribe resumes the task from the last event seen: no gap, no duplicate', async () => {
    const page = await openPlayground();
    await send(page, 'write a poem about stars');
    await rows(page, 'artifact chunk').first().waitFor();
    await page.reload();
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^Connected/);
    expect(await rows(page, 'artifact chunk').count()).toBeGreaterThanOrEqual(1); // the timeline survived the reload
    await page.getByRole('button', { name: 'Resubscribe' }).click();
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    expect(await rows(page, 'artifact chunk').count()).toBe(4);
    // Events are unique and in order; a Task snapshot (the first answer of a resubscription) is not an event.
    const seqs = (await timeline(page).locator('li:not([data-kind="task"]) .seq').allTextContents()).filter(
      (s) => s !== '—',
    );
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs.map((s) => Number(s.slice(1)))).toEqual([...seqs.map((s) => Number(s.slice(1)))].sort((a, b) => a - b));
    // The chunks after the reload joined the poem's bubble: one poem, whole, and each agent message once.
    const shown = await bubbles(page);
    expect(shown.filter((b) => b.from === 'artifact')).toEqual([{ from: 'artifact', text: [poemAbout('stars')] }]);
    expect(shown.filter((b) => b.text[0] === 'Writing a poem about stars…')).toHaveLength(1);
    await page.context().close();
  });

  it('after a reload, shows the end of a task that ended meanwhile: final state, whole artifact, no error', async () => {
    const page = await openPlayground();
    await connectTo(page, `${agent.url}/.well-known/agent-card.json`);
    await connected(page);
    await send(page, 'hold');
    await rows(page, 'artifact chunk').first().waitFor();
    const id = (await taskIdOn(page)) as string;
    // The page goes away mid-stream (half the artifact seen); the task ends while it is gone.
    await page.goto('about:blank');
    agent.release();
    await expect.poll(() => stateAt(agent.url, id)).toBe('TASK_STATE_COMPLETED');
    await page.goto(`${base}/playground`);
    await connected(page);
    expect(await page.locator('#task-info').textContent()).toBe(`Task ${id}: Completed`);
    expect(await rows(page, 'TASK_STATE_COMPLETED').count()).toBe(1);
    expect(await rows(page, 'reconnected: the task had ended').count()).toBe(1);
    expect(await timeline(page).locator('[data-kind="error"]').count()).toBe(0);
    expect(await bubbles(page)).toEqual(heldToTheEnd);
    // An ended task has nothing to subscribe to.
    expect(await resubscribeButton(page).isDisabled()).toBe(true);
    await page.context().close();
  });

  it('Resubscribe on a task that ended unseen fetches it (GetTask) instead of showing UnsupportedOperation', async () => {
    const page = await openPlayground();
    await connectTo(page, `${agent.url}/.well-known/agent-card.json`);
    await connected(page);
    await send(page, 'hold');
    await rows(page, 'artifact chunk').first().waitFor();
    const id = (await taskIdOn(page)) as string;
    await page.reload(); // the task still runs: the page shows it as it last saw it
    await connected(page);
    expect(await page.locator('#task-info').textContent()).toBe(`Task ${id}: Working`);
    agent.release();
    await expect.poll(() => stateAt(agent.url, id)).toBe('TASK_STATE_COMPLETED');
    await resubscribeButton(page).click(); // the agent refuses: the task has ended
    const completed = timeline(page).locator('[data-kind="task"][data-state="TASK_STATE_COMPLETED"]');
    await completed.waitFor();
    expect(await completed.count()).toBe(1);
    expect(await rows(page, 'the task has ended: fetched it (GetTask) instead').count()).toBe(1);
    expect(await timeline(page).locator('[data-kind="error"]').count()).toBe(0);
    expect(await bubbles(page)).toEqual(heldToTheEnd);
    expect(await resubscribeButton(page).isDisabled()).toBe(true);
    await page.context().close();
  });

  it("connects from an agent's address (its well-known card), on the page's origin and through the proxy", async () => {
    const page = await openPlayground();
    const card = page.getByRole('region', { name: 'Agent card' });
    await connectTo(page, base);
    await connected(page);
    expect(await card.textContent()).toContain(`Fetched from${base}/.well-known/agent-card.json`);
    await connectTo(page, `${agent.url}/`);
    await connected(page);
    expect(await card.textContent()).toContain(`Fetched from${agent.url}/.well-known/agent-card.json`);
    await send(page, 'say hello'); // the proxy calls the agent of the card it found
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    // Nothing at the address nor under it: both named, with what each answered.
    const alert = page.locator('#connect-error');
    await connectTo(page, `${agent.url}/nowhere`);
    await expect
      .poll(() => alert.textContent())
      .toBe(
        `No agent card at ${agent.url}/nowhere (answered 404) nor at ${agent.url}/nowhere/.well-known/agent-card.json ` +
          "(answered 404): give the agent's address or its card's URL",
      );
    // Not a URL at all: said so, and nothing fetched (it would be a path of the page's own origin).
    const before = await page.locator('#wire .wire-request').count();
    await connectTo(page, 'not a url');
    await expect.poll(() => alert.textContent()).toMatch(/^"not a url" is not a URL: give the agent's address/);
    expect(await page.locator('#wire .wire-request').count()).toBe(before);
    await page.context().close();
  });

  it("after a failed connect, marks the chat and task as the previous agent's; another agent starts over", async () => {
    const page = await openPlayground();
    await send(page, 'write a poem about glass');
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    await page.getByRole('button', { name: 'List tasks' }).click();
    const listed = page.getByRole('table', { name: 'Task list' }).locator('tbody tr');
    await listed.first().waitFor();
    const card = page.getByRole('region', { name: 'Agent card' });
    const session = page.locator('#session');
    await connectTo(page, 'http://10.0.0.1/.well-known/agent-card.json');
    await expect.poll(() => page.locator('#connect-error').textContent()).toMatch(/Refused/);
    // Not the previous agent's card under "Not connected"; its chat says whose it is, dimmed.
    expect(await card.locator('#card').textContent()).toBe('Not connected.');
    expect(await session.textContent()).toBe('Not connected: this chat and task are from your session with Poet');
    expect(await conversation(page).getAttribute('class')).toContain('previous');
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    expect(await listed.count()).toBe(0); // the Poet's task list, whose Open buttons would call the next agent
    // The same agent again (by its address): the session goes on.
    await connectTo(page, base);
    await connected(page);
    expect(await session.textContent()).toMatch(/^Session \(contextId\): /);
    expect(await conversation(page).getAttribute('class')).not.toContain('previous');
    expect((await bubbles(page)).length).toBeGreaterThan(2);
    // Another agent: a new session, nothing of the Poet's left.
    await connectTo(page, `${agent.url}/.well-known/agent-card.json`);
    await connected(page);
    expect(await bubbles(page)).toEqual([]);
    expect(await timeline(page).getByRole('listitem').count()).toBe(0);
    expect(await page.locator('#task-info').textContent()).toBe('No task yet');
    await page.context().close();
  });

  it('speaks A2A 0.3 when selected: the same poem, states shown the v1.0 way', async () => {
    const page = await openPlayground();
    await page.getByRole('combobox', { name: 'Protocol version' }).selectOption('0.3');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^Connected: A2A 0\.3/);
    await send(page, 'write a poem about dusk');
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    expect(await rows(page, 'TASK_STATE_WORKING').count()).toBe(1);
    expect(await rows(page, 'artifact chunk').count()).toBe(4);
    const requests = await page.locator('#wire .wire-body').allTextContents();
    expect(requests.some((b) => b.includes('"method":"message/stream"'))).toBe(true);
    await page.context().close();
  });

  it('sends a file and a data part next to the text', async () => {
    const page = await openPlayground();
    await connectTo(page, `${agent.url}/.well-known/agent-card.json`); // the echo agent accepts text and JSON
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^Connected/);
    await page.getByText('Attach a file or data part').click();
    await page
      .getByLabel('Attach file')
      .setInputFiles({ name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('hello file') });
    await page.getByRole('textbox', { name: 'Data part (JSON)' }).fill('{"answer": 42}');
    await send(page, 'with attachments', false);
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    const sent = (await page.locator('#wire .wire-body').allTextContents()).find((b) => b.includes('SendMessage'));
    const parts = JSON.parse(sent ?? '{}').params.message.parts;
    expect(parts).toEqual([
      { text: 'with attachments' },
      { raw: Buffer.from('hello file').toString('base64'), filename: 'note.txt', mediaType: 'text/plain' },
      { data: { answer: 42 }, mediaType: 'application/json' },
    ]);
    await page.context().close();
  });

  it('lists tasks with a status filter', async () => {
    const page = await openPlayground();
    await page.getByRole('combobox', { name: 'Status filter' }).selectOption('TASK_STATE_CANCELED');
    await page.getByRole('button', { name: 'List tasks' }).click();
    const table = page.getByRole('table', { name: 'Task list' });
    await table.getByRole('row').nth(1).waitFor();
    // States read as words, on a badge that keeps the wire value.
    const states = await table.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(states.length).toBeGreaterThan(0);
    expect(new Set(states)).toEqual(new Set(['Canceled']));
    const badges = await table
      .locator('tbody .badge')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    expect(new Set(badges)).toEqual(new Set(['TASK_STATE_CANCELED']));
    const options = await page.getByRole('combobox', { name: 'Status filter' }).locator('option').allTextContents();
    expect(options.filter((o) => o.startsWith('TASK_STATE_'))).toEqual([]);
    await page.context().close();
  });

  it('shows task states as words with a badge: task list, task line, timeline and chat', async () => {
    const page = await openPlayground();
    await send(page, 'write a poem about rain');
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    expect(await page.locator('#task-info').textContent()).toMatch(/^Task \S+: Completed$/);
    expect(await page.locator('#task-info .badge').getAttribute('data-state')).toBe('TASK_STATE_COMPLETED');
    expect(await rows(page, 'TASK_STATE_COMPLETED').locator('.badge').textContent()).toBe('Completed');
    expect(await rows(page, 'TASK_STATE_WORKING').locator('.badge').textContent()).toBe('Working');
    expect(await conversation(page).locator('.badge').allTextContents()).toEqual(['Working', 'Completed']);
    await page.getByRole('button', { name: 'List tasks' }).click();
    const table = page.getByRole('table', { name: 'Task list' });
    await table.getByRole('row').nth(1).waitFor();
    const states = await table.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(states).toContain('Completed');
    expect(states.filter((s) => s.includes('TASK_STATE_'))).toEqual([]);
    await page.context().close();
  });

  for (const width of [420, 1400]) {
    it(`lays out at ${width} px: nothing wider than the window, states and buttons not broken mid-word`, async () => {
      const page = await openPlayground(width);
      await send(page, 'write a poem about the wide sea');
      await rows(page, 'TASK_STATE_COMPLETED').waitFor();
      await page.getByRole('button', { name: 'List tasks' }).click();
      await page.getByRole('table', { name: 'Task list' }).getByRole('row').nth(1).waitFor();
      // Everything unfolded: the wire log's bodies and the raw card are the widest texts.
      const folded = page.locator('details:not([open]) > summary');
      while ((await folded.count()) > 0) await folded.first().click();
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      // Each state badge and button is one line of text (the narrow task table broke "Op/en" and "TASK_STATE_/...").
      // (The card's example prompts are left out: they may wrap between words.)
      const lines = await page.locator('.badge, button:visible').evaluateAll((els) =>
        els
          .filter((e) => !e.closest('.examples'))
          .map((e) => {
            const range = document.createRange();
            range.selectNodeContents(e);
            return {
              text: e.textContent,
              lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
            };
          }),
      );
      expect(lines.filter((l) => l.lines > 1)).toEqual([]);
      expect(lines.some((l) => l.text === 'Open')).toBe(true);
      await page.context().close();
    });
  }

  it("takes the message box's placeholder and suggestions from the connected card", async () => {
    const page = await openPlayground();
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    expect(await box.getAttribute('placeholder')).toBe('write a poem about the sea'); // the Poet's first example
    await connectTo(page, `${agent.url}/.well-known/agent-card.json`);
    await expect.poll(() => box.getAttribute('placeholder')).toBe('say hello'); // the echo agent's
    await page.getByRole('button', { name: 'letter', exact: true }).click();
    expect(await box.inputValue()).toBe('letter');
    expect(await box.evaluate((e) => e === document.activeElement)).toBe(true);
    // Shift+Enter adds a line, Enter sends.
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('two');
    expect(await box.inputValue()).toBe('letter\ntwo');
    await page.keyboard.press('Enter');
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    expect((await bubbles(page))[0]).toEqual({ from: 'user', text: ['letter\ntwo'] });
    await connectTo(page, `${agent.url}/bad/invalid.json`); // no agent to talk to: generic, no suggestions
    await expect.poll(() => box.getAttribute('placeholder')).toBe('Connect to an agent to chat');
    expect(await page.getByRole('button', { name: 'say hello' }).count()).toBe(0);
    await page.context().close();
  });

  it('folds the timeline and the wire log; the timeline is still the log named "Timeline"', async () => {
    const page = await openPlayground();
    await send(page, 'write a poem about folding');
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    // The wire log starts folded, its buttons outside the fold.
    const wireEntries = page.getByRole('list', { name: 'Wire log entries' });
    expect(await wireEntries.isVisible()).toBe(false);
    await page.locator('summary', { hasText: 'Requests, responses and SSE frames' }).click();
    await expect.poll(() => wireEntries.isVisible()).toBe(true);
    expect(await wireEntries.getByRole('listitem').count()).toBeGreaterThan(5);
    // The timeline starts open and folds from the keyboard.
    const events = page.locator('summary', { hasText: 'Events' });
    expect(await events.textContent()).toBe('Events (7)');
    await events.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => timeline(page).isVisible()).toBe(false);
    await page.keyboard.press('Enter');
    await expect.poll(() => timeline(page).isVisible()).toBe(true);
    expect(await timeline(page).getByRole('listitem').count()).toBe(7);
    await page.context().close();
  });

  it('refuses private addresses and non-HTTP schemes with a message', async () => {
    const page = await openPlayground();
    const alert = page.locator('#connect-error');
    await connectTo(page, 'http://10.0.0.1/.well-known/agent-card.json');
    await expect.poll(() => alert.textContent()).toMatch(/Refused: 10\.0\.0\.1 is a private address/);
    await connectTo(page, 'file:///etc/passwd');
    await expect.poll(() => alert.textContent()).toMatch(/only http and https URLs can be fetched, not file:/);
    await connectTo(page, 'http://169.254.169.254/latest/meta-data/');
    await expect.poll(() => alert.textContent()).toMatch(/linkLocal/);
    await page.context().close();
  });

  it('shows the validation errors of a malformed card instead of breaking', async () => {
    const page = await openPlayground();
    await connectTo(page, `${agent.url}/bad/invalid.json`);
    const errors = page.getByRole('region', { name: 'Validation errors' });
    await errors.waitFor();
    const text = await errors.textContent();
    expect(text).toContain('skills.0.id');
    expect(text).toContain('supportedInterfaces');
    expect(await page.locator('#connect-error').textContent()).toMatch(/no JSON-RPC interface/);
    await page.screenshot({ path: `${DOCS}card-errors.png` });
    await page.context().close();
  });

  it('never renders agent-supplied text as HTML (card fields and chat, through the proxy)', async () => {
    const page = await openPlayground();
    const xss = '<img src=x onerror="window.__xss=1">';
    await connectTo(page, `${agent.url}/bad/html.json`);
    const card = page.getByRole('region', { name: 'Agent card' });
    await expect.poll(() => card.textContent()).toContain(xss);

    await connectTo(page, `${agent.url}/.well-known/agent-card.json`); // the echo agent, through the proxy
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^Connected/);
    expect(await card.getByLabel('Signature status').textContent()).toMatch(/Signature verified/);
    await send(page, xss);
    await rows(page, 'TASK_STATE_COMPLETED').waitFor();
    expect(await conversation(page).textContent()).toContain(`echo: ${xss}`);
    expect(await rows(page, 'artifact chunk').textContent()).toContain(xss);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await page.context().close();
  });
});
