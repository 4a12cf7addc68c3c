import type { Observation } from '@doctree/schema';
import { textObservation } from '../__fixtures__/report-tree.js';
import { occurrenceTarget } from './count-candidates.js';
import { ExtractiveReader } from './extractive-reader.js';

const reader = new ExtractiveReader();

function section(nodeId: string, text: string, headings: string[], page: number, charStart?: number): Observation {
  return {
    node_id: nodeId,
    modality: 'section',
    page,
    bbox: null,
    payload: { kind: 'text', text, heading_path: headings, ...(charStart !== undefined ? { char_span: [charStart, charStart + text.length] as [number, number] } : {}) },
  };
}

describe('counts', () => {
  it('counts the steps listed under the heading the question names when no sentence states the number', async () => {
    const usb = section('s_2', 'Steps to save recipes\n1. Insert the USB stick\n2. Open the USB menu\n3. Select Save recipes\n4. Confirm with OK', ['4.13 USB'], 56);
    const result = await reader.read({ question: 'How many steps does saving a recipe take?', observations: [usb] });
    expect(result).toMatchObject({ answer: 4, answer_format: 'Int' });
    expect(result.notes?.join('\n')).toMatch(/counted 4 item/);
  });

  it('keeps a number the evidence states with what is counted over counting a list', async () => {
    const text = section('s_3', 'The grinder offers 7 grind fineness levels.\nLevels:\n- fine\n- medium\n- coarse', ['Grinder'], 30);
    const result = await reader.read({ question: 'How many grind fineness levels does the grinder offer?', observations: [text] });
    expect(result.answer).toBe(7);
  });

  it('counts a procedure written one numbered paragraph per step under the heading the question names', async () => {
    const heading = ['Getting started', 'Pairing the remote with the receiver'];
    const steps = [
      section('t_1', '1 Hold the pairing key until the lamp blinks.', heading, 12, 100),
      section('t_2', '2 Point the remote at the receiver and press OK.', heading, 12, 150),
      section('t_3', '3 Wait for the chime, then release the key.', heading, 13, 200),
    ];
    const other = section('t_9', 'The remote runs 12 months on 2 batteries.', ['Getting started', 'Batteries'], 14, 400);
    const result = await reader.read({ question: 'How many steps does pairing the remote with the receiver take?', observations: [other, ...steps] });
    expect(result).toMatchObject({ answer: 3, answer_format: 'Int' });
    expect(result.support.map((s) => s.node_id)).toEqual(['t_1', 't_2', 't_3']);
  });

  it('does not count a numbered list for a comparison of two counts', async () => {
    const steps = section('t_1', '1 Open the lid.\n2 Fill the tank.', ['Filling the water tank'], 3);
    const result = await reader.read({ question: 'How many more steps does filling the water tank need than emptying it?', observations: [steps] });
    expect(result.notes?.join('\n') ?? '').not.toMatch(/counted \d+ (?:numbered )?item/);
  });

  it('counts the occurrences of a quoted word on the page named, once per place in the document', async () => {
    const page = 'About Acme\nAcme moves money for 48 million customers. ACME was founded in 1690.';
    const whole = section('s_4', page, ['About Acme'], 4, 1000);
    // A paragraph of that section, observed on its own too: its occurrences are the same places.
    const part = section('t_4', 'Acme moves money for 48 million customers. ACME was founded in 1690.', ['About Acme'], 4, 1011);
    const other = textObservation('t_9', 'Acme appears here on another page.', 5);
    const result = await reader.read({ question: 'How many times does "Acme" appear on page 4?', observations: [whole, part, other] });
    expect(result).toMatchObject({ answer: 3, answer_format: 'Int' });
    expect(result.support.every((s) => s.page === 4)).toBe(true);
    expect(occurrenceTarget('How many times does the word Acme appear in the report?')).toBe('Acme');
  });
});
