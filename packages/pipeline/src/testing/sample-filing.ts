/**
 * A made-up company filing in Markdown (two pages, `<!-- page N -->` markers) whose cover names its period: the
 * document collection specs build and re-read. Everything but the cover (and the cash figure, when given) is the same
 * for every period, so only the period tells two filings apart.
 *
 * @param cover - The cover line, e.g. `Quarterly report for the quarter ended March 31, 2023`.
 * @param cash - A cash amount written into the liquidity paragraph, e.g. `$12 million`.
 */
export function sampleFiling(cover: string, cash?: string): string {
  return `<!-- page 1 -->

# Harbor Tools

${cover}

## Overview

Harbor Tools makes cordless drills and sells them in Europe and Asia.

<!-- page 2 -->

## Liquidity

Harbor Tools held cash${cash !== undefined ? ` of ${cash}` : ''} when the period closed and has no debt.
`;
}
