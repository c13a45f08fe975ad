import { basename } from 'node:path';
import type { ContractReport, MockPlace } from './check-scenario-files.js';

/** In text, the unchecked mocks listed one by one up to this many; `--json` lists them all. */
const SHOWN_UNCHECKED = 50;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** `scenarios/pets.yaml: scenario "default", mock "getPetById" (mocks[0])`; a variant's mock: `(variants.gold.mocks[1])`. */
export function describePlace(place: MockPlace): string {
  const list = place.variant === undefined ? `mocks[${place.index}]` : `variants.${place.variant}.mocks[${place.index}]`;
  return `${place.file}: scenario ${JSON.stringify(place.scenario)}, ${place.id === undefined ? list : `mock ${JSON.stringify(place.id)} (${list})`}`;
}

/**
 * The report as text: what of the documents is not checked (`document: pointer: why`), one line
 * per problem (file, scenario, mock, field: what the document expects (operation, document)),
 * then the mocks not checked and why, then a summary line.
 */
export function formatReport(report: ContractReport): { warnings: string[]; problems: string[]; unchecked: string[]; summary: string } {
  const warnings = report.documents.flatMap((d) => (d.warnings ?? []).map((warning) => `${d.path}: ${warning}`));
  const problems = report.problems.map((p) => `${describePlace(p)}, ${p.field}: ${p.message} (${p.operation === undefined ? '' : `${p.operation}, `}${basename(p.document)})`);
  const unchecked = report.unchecked.slice(0, SHOWN_UNCHECKED).map((u) => `  ${describePlace(u)}, ${u.url}: ${u.reason}`);
  if (report.unchecked.length > SHOWN_UNCHECKED) unchecked.push(`  …and ${report.unchecked.length - SHOWN_UNCHECKED} more (--json lists them all).`);
  if (unchecked.length > 0) unchecked.unshift(`Not checked (${report.unchecked.length}):`);
  const documents = report.documents.map((d) => `${d.path} (${d.specification})`).join(', ');
  const withProblems = new Set(report.problems.map((p) => describePlace(p))).size;
  const outcome =
    report.problems.length === 0
      ? `No problems: ${plural(report.checked, 'mock')} checked against ${documents}`
      : `${plural(report.problems.length, 'problem')} in ${withProblems} of the ${plural(report.checked, 'mock')} checked against ${documents}`;
  const notChecked = report.mocks - report.checked;
  const summary = `${outcome}${notChecked > 0 ? `; ${notChecked} of ${plural(report.mocks, 'mock')} not checked (listed above)` : ''}.`;
  return { warnings, problems, unchecked, summary };
}
