import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeXml } from '../src/output/junit.js';

/** Characters XML 1.0 cannot carry: C0 controls but tab, LF and CR; U+FFFE and U+FFFF. */
const illegal = (text: string) =>
  [...text].some((c) => {
    const code = c.codePointAt(0) as number;
    return (code < 0x20 && code !== 0x9 && code !== 0xa && code !== 0xd) || code === 0xfffe || code === 0xffff;
  });

// JUnit XML carries the agent's own words (error messages): whatever it sends, the file must stay well-formed XML.
describe('escapeXml', () => {
  it('escapes markup and drops what XML 1.0 cannot carry', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
    expect(escapeXml('bell\u0007 nul\u0000 tab\t lone\uD800 pair\uD83D\uDE00')).toBe(
      'bell\uFFFD nul\uFFFD tab\t lone\uFFFD pair\uD83D\uDE00',
    );
  });

  it('leaves no markup character and no XML-illegal character, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const out = escapeXml(text);
        expect(out).not.toMatch(/[<>"']|&(?!(amp|lt|gt|quot|apos);)/);
        expect(illegal(out)).toBe(false);
        // No lone surrogate: UTF-8 encoding would turn it into U+FFFD.
        expect(Buffer.from(out, 'utf8').toString('utf8')).toBe(out);
      }),
    );
  });
});
