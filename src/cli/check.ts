import { print, info } from './_output.js';
import { defineCommand, UsageError } from './command.js';

export const checkCommand = defineCommand({
  name: 'check',
  args: '--openapi <doc> [--openapi <doc>…] <scenario files…>',
  summary: 'Check mocks against the providers\' OpenAPI documents (contract drift)',
  description: [
    'Reads each OpenAPI 3.0/3.1 or Swagger 2 document (JSON or YAML) and each scenario file (.json,',
    '.yaml, .yml, or a module exporting `scenarios`), and checks every mock whose URL is under one of a',
    'document\'s servers: the operation exists (method and path), the response status is documented,',
    'required response headers are set, the content type is documented and a JSON body fits its',
    'schema (a template counts as any value), and `match` names only query parameters, headers and',
    'body fields the operation declares. Binary bodies and streams are checked by content type only.',
    '',
    'Prints one line per problem: file, scenario, mock ID and index, the field, what the document',
    'expects. Mocks under no document\'s servers are listed as not checked. Exits with 1 when there is',
    'a problem, 0 when there is none, 2 for a wrong invocation.',
    '',
    'A $ref may read local files inside the document\'s folder only; --allow-refs-outside lifts that',
    'for a document you trust. A pattern of the document that could backtrack catastrophically is',
    'not run: a line names it (its JSON pointer), and values are not checked against it.',
  ].join('\n'),
  options: {
    openapi: { type: 'string', multiple: true, value: '<doc>', description: 'An OpenAPI or Swagger document to check against; give one per provider' },
    json: { type: 'boolean', description: 'Print the report as one JSON object (documents, mocks, checked, problems, unchecked)' },
    'allow-refs-outside': { type: 'boolean', description: 'Let the documents\' $refs read local files outside the document\'s folder (their content can show in the report)' },
  },
  examples: [
    'scenario-harness check --openapi specs/payments.yaml scenarios/payments.yaml',
    'scenario-harness check --openapi specs/stripe.json --openapi specs/github.yaml scenarios/*.yaml --json',
  ],
  async run({ values, positionals }) {
    const documents = values.openapi ?? [];
    if (documents.length === 0) throw new UsageError('Against what? Give the API document with --openapi: scenario-harness check --openapi specs/api.yaml scenarios/*.yaml');
    if (positionals.length === 0) throw new UsageError('Which scenario files? Give one or more after the options: scenario-harness check --openapi specs/api.yaml scenarios/*.yaml');
    // Loaded here only: the parser and the JSON Schema validator belong to this command, never to an app.
    const { checkScenarioFiles } = await import('../contracts/check-scenario-files.js');
    const { loadScenarioSource } = await import('../register/load-scenario-sources.js');
    const report = await checkScenarioFiles(documents, positionals, loadScenarioSource, { allowRefsOutside: values['allow-refs-outside'] === true });
    if (values.json === true) {
      print(JSON.stringify(report, null, 2));
    } else {
      const { formatReport } = await import('../contracts/format-report.js');
      const { warnings, problems, unchecked, summary } = formatReport(report);
      for (const line of [...warnings, ...problems, ...unchecked]) print(line);
      info(summary);
    }
    return report.problems.length > 0 ? 1 : 0;
  },
});
