import type { Page } from './page.js';
import { onError, onResult } from './results.js';
import { follow } from './task-actions.js';
import { asked, updateTaskControls } from './task-controls.js';
import { partsList } from './timeline.js';
import type { Message, Part } from './types.js';

/** The attached file, as a raw (base64) part. */
async function fileParts(input: HTMLInputElement): Promise<Part[]> {
  const file = input.files?.[0];
  if (!file) return [];
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return [{ raw: btoa(binary), filename: file.name, mediaType: file.type || 'application/octet-stream' }];
}

/** Sends the chat form's message (text, file, data part): it continues the task when the agent asked, else starts one. */
export async function send(page: Page): Promise<void> {
  const { el, saved } = page;
  if (!page.link) return;
  const text = el.message.value;
  let parts: Part[];
  try {
    parts = [...(text.trim() ? [{ text }] : []), ...(await fileParts(el.file))];
    if (el.data.value.trim()) parts.push({ data: JSON.parse(el.data.value) as unknown, mediaType: 'application/json' });
  } catch {
    page.say('The data part is not valid JSON');
    return;
  }
  if (parts.length === 0) {
    page.say('Type a message (or attach a file or data part) first');
    return;
  }
  const continuing = asked(page);
  const message: Message = {
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts,
    ...(saved.contextId ? { contextId: saved.contextId } : {}),
    ...(continuing && saved.task ? { taskId: saved.task.id } : {}),
  };
  if (!continuing) {
    page.timeline.clear();
    saved.task = undefined;
    saved.lastSeq = undefined;
  }
  page.conversation.show({ role: 'user', who: 'You', parts: partsList(parts) });
  el.message.value = '';
  el.data.value = '';
  el.file.value = '';
  el.message.focus(); // the next message (or the answer to a question) goes here, also after clicking Send
  page.save();
  updateTaskControls(page);
  if (el.stream.checked) await follow(page, (l, onEvent, signal) => l.sendStreaming(message, onEvent, signal));
  else {
    try {
      onResult(page, await page.link.send(message));
      page.say('Answered');
    } catch (error) {
      onError(page, error);
    }
  }
}

/** Forgets the session (contextId), the task and the chat; the connection stays. */
export function newSession(page: Page): void {
  const { saved } = page;
  page.streaming?.abort();
  saved.contextId = undefined;
  saved.task = undefined;
  saved.lastSeq = undefined;
  saved.conversation = [];
  page.conversation.clear();
  page.timeline.clear();
  updateTaskControls(page);
  page.save();
  page.say('New session');
}
