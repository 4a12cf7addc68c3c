import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeSimplePdf, type PdfPageSpec } from '@doctree/ingest';
import { wrap } from '../testing/evidence-retriever-conformance.js';


/** A PDF page of paragraphs (a blank line between them), with a running header and a page number. */
function page(paragraphs: readonly string[], header: string, n: number, unicode = false): PdfPageSpec {
  const runs: PdfPageSpec['runs'] = [{ text: header, x: 72, y: 40, size: 9 }];
  let y = 80;
  for (const paragraph of paragraphs) {
    for (const line of unicode ? [paragraph] : wrap(paragraph)) {
      runs.push({ text: line, x: 72, y, size: 11, ...(unicode ? { unicode: true } : {}) });
      y += 14;
    }
    y += 10;
  }
  runs.push({ text: String(n), x: 300, y: 770, size: 9 });
  return { runs };
}

/** Writes a PDF whose pages hold the given paragraphs. */
export function writeParagraphPdf(path: string, pages: ReadonlyArray<readonly string[]>, header: string, options: { unicode?: boolean } = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, writeSimplePdf(pages.map((p, i) => page(p, header, i + 1, options.unicode))));
}

/** Made-up facts of a fictional harbour cooperative, three pages. */
export const HARBOR_PAGES: ReadonlyArray<readonly string[]> = [
  [
    'Harbor Light Cooperative was founded in 1998 by forty-two fishing families on the northern coast.',
    'The cooperative runs a cold store, a repair yard and a small market hall that opens on Saturdays. Members elect a board of seven people every two years, and the board appoints the manager of each site.',
    'In the 2022 season the cold store handled 18,400 tonnes of catch, up from 15,900 tonnes a year earlier. The repair yard serviced 311 boats, most of them under twelve metres long.',
    'Membership fees rose to 240 euros per household because the cold store needed a new compressor. The board expects the fee to stay at that level until the compressor loan is repaid in 2027.',
  ],
  [
    'Energy is the largest running cost of the cooperative. Electricity for the cold store cost 412,000 euros in 2022, which is 31 percent of all operating costs.',
    'Solar panels installed on the market hall roof in 2021 supply about a fifth of the electricity used on sunny days. The board plans a second array on the repair yard roof if the regional grant is approved.',
    'Staff numbers grew from 26 to 29 full-time employees during the year. Two of the new posts are apprenticeships in marine engine repair, funded jointly with the technical college.',
    'The market hall sold smoked fish, net repairs and local crafts. Saturday visitors averaged 640 people in the summer months and 210 people in the winter months.',
  ],
  [
    'Storms in February damaged the outer breakwater and closed the harbour mouth for nine days. Repairs cost 96,000 euros, of which the regional authority paid two thirds.',
    'The cooperative lent 14 boats to the coast guard during the rescue exercise in May. Members voted to keep the exercise as a yearly event because it trained younger crews in night navigation.',
    'The auditors found the accounts to be in order and recommended a larger reserve for storm damage. The board agreed to set aside 5 percent of the annual surplus for that reserve from 2023 on.',
  ],
];

/** Made-up facts of a fictional mountain rail line, two pages. */
export const RAIL_PAGES: ReadonlyArray<readonly string[]> = [
  [
    'The Valley Rail Line connects the town of Brenner Falls with the ski village of Altmoor over 34 kilometres of track.',
    'Ridership reached 1.2 million passengers in 2021, the highest figure since the line reopened. Weekend trains carried more than half of all passengers during the winter months.',
    'The line operates six electric railcars built in 2015 and two diesel locomotives kept for snow clearing.',
  ],
  [
    'A new timetable introduced in March cut the journey time from 58 minutes to 49 minutes by removing two request stops.',
    'Ticket revenue covered 64 percent of operating costs; the district council paid the remainder under a ten-year service contract.',
    'Track renewal between Altmoor and the viaduct is planned for 2024 and will close the upper section for six weeks.',
  ],
];

/** Creates a temporary folder for a test workspace. */
export function tempDir(prefix = 'doctree-workspace-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}
