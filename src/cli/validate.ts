import type { ScenarioMap } from '../core/types.js';
import { loadScenarioFile, type ScenarioFile } from '../files/load-scenario-file.js';
import { mergeScenarioFiles } from '../files/merge-scenario-files.js';
import { print, problem } from './_output.js';
import { defineCommand, UsageError } from './command.js';

/** `3 scenarios (default, cardDeclined, slow), 7 mocks` (and `, 2 socket mocks` when there are any). */
function summarise(scenarios: ScenarioMap): string {
  const ids = Object.keys(scenarios);
  let mocks = 0;
  let sockets = 0;
  for (const definition of Object.values(scenarios)) {
    mocks += definition.mocks.length;
    sockets += definition.sockets?.length ?? 0;
    for (const variant of Object.values(definition.variants ?? {})) {
      mocks += variant.mocks.length;
      sockets += variant.sockets?.length ?? 0;
    }
  }
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const shown = ids.length > 8 ? [...ids.slice(0, 8), '…'] : ids;
  return `${plural(ids.length, 'scenario')} (${shown.join(', ')}), ${plural(mocks, 'mock')}${sockets === 0 ? '' : `, ${plural(sockets, 'socket mock')}`}`;
}

export const validateCommand = defineCommand({
  name: 'validate',
  args: '<files…>',
  summary: 'Check scenario files (.json, .yaml, .yml) and list every problem',
  description: [
    'Reads each scenario file and checks it the way createHarness() checks scenarios in code:',
    'fields, URL patterns, matchers, templates, regular expressions. Files given together are',
    'also checked for a scenario ID defined in more than one of them.',
    '',
    'Prints one line per valid file, and every problem of every invalid file (with its file,',
    'scenario ID, mock index and field). Exits with 0 when every file is valid, 1 otherwise.',
  ].join('\n'),
  options: {},
  examples: ['scenario-harness validate scenarios/payments.yaml', 'scenario-harness validate scenarios/*.yaml scenarios/*.json'],
  async run({ positionals }) {
    if (positionals.length === 0) throw new UsageError('Which files? Give one or more scenario files: scenario-harness validate scenarios/*.yaml');
    const results = await Promise.allSettled(positionals.map((path) => loadScenarioFile(path)));
    const valid: ScenarioFile[] = [];
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') {
        valid.push(result.value);
        print(`✓ ${result.value.path}: ${summarise(result.value.scenarios)}`);
      } else {
        problem(`✗ ${positionals[i]}\n${(result.reason as Error).message}`);
      }
    });
    let clash = false;
    try {
      mergeScenarioFiles(valid);
    } catch (error) {
      clash = true;
      problem((error as Error).message);
    }
    const invalid = positionals.length - valid.length;
    if (invalid === 0 && !clash) return 0;
    problem(invalid > 0 ? `${invalid} of ${positionals.length} files invalid.` : 'Every file is valid alone, but they cannot be loaded together.');
    return 1;
  },
});
