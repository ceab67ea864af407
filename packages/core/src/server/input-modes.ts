import { A2AError } from '../errors.js';
import type { AgentCard } from '../schemas/agent-card.js';
import type { Part } from '../schemas/message.js';

/**
 * `type/subtype` in lower case, parameters dropped (`Text/Plain; charset=utf-8` → `text/plain`). The bare `text` of
 * pre-1.0 cards, which `@a2a-js/sdk` agents still declare (`defaultInputModes: ['text']`), is `text/plain`: a media
 * type always has a subtype, so the alias takes no meaning away.
 */
const essence = (mediaType: string): string => {
  const type = (mediaType.split(';', 1)[0] ?? '').trim().toLowerCase();
  return type === 'text' ? 'text/plain' : type;
};

/**
 * The media types a card accepts (spec §3.1.1): its `defaultInputModes` and every skill's `inputModes` (a message
 * names no skill, so any skill's modes may be the one it targets). `*` / `type/*` entries are wildcards.
 */
export function inputModeChecker(card: AgentCard): (parts: readonly Part[]) => void {
  const modes = new Set([...card.defaultInputModes, ...card.skills.flatMap((s) => s.inputModes ?? [])].map(essence));
  const accepts = (mediaType: string): boolean => {
    // A media type already in its essence form (`text/plain`, nearly every part) is looked up as it is: no `split`
    // array and lower-cased copy per part (issue 39, docs/performance.md "Bytes per SendMessage, twenty-third session").
    if (modes.has(mediaType)) return true;
    const type = essence(mediaType);
    return modes.has(type) || modes.has('*/*') || modes.has('*') || modes.has(`${type.split('/', 1)[0] ?? ''}/*`);
  };
  const accepted = [...modes].join(', ');
  // A loop, not `forEach`: no closure and context per request (issue 39).
  return (parts) => {
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as Part;
      // A text part without a media type is text/plain; other parts without one name none to check.
      const mediaType = part.mediaType ?? (part.text !== undefined ? 'text/plain' : undefined);
      if (mediaType === undefined || accepts(mediaType)) continue;
      throw new A2AError(
        'ContentTypeNotSupported',
        `Incompatible content types: message.parts[${i}] has media type ${JSON.stringify(mediaType)}, which is not supported by this agent (accepted: ${accepted})`,
        { metadata: { mediaType, field: `message.parts[${i}].mediaType`, accepted } },
      );
    }
  };
}
