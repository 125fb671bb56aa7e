// `campaign-desk agents`: a workspace's agents as the app's library sync reads them (every page of
// the listing, then each agent by id), for scripts. The API key comes from the environment only.
import { jsonLine, terminalText } from '../../shared/domain/visibleText.ts';
import { createApiClient, isApiError } from '../services/api/index.ts';
import { readAllAgents } from '../services/agents/readAgents.ts';
import { agentServiceFailure } from '../services/workspaces/workspaceAccess.ts';
import { EXIT, parseCommandLine, UsageError } from './exitCodes.ts';
import type { Io } from './io.ts';
import { formatCount } from '../../shared/domain/formatCount.ts';

export const API_KEY_ENV = 'CAMPAIGN_DESK_API_KEY';
const TIMEOUT_MS = 20_000;

export const agentsUsage = `Usage: campaign-desk agents --base-url <url> [--json]

Lists the workspace's agents: id, name, language, versions, archived, and the variables a contact
list supplies (callee_name always; mobile_number is the phone column). Reads every page of the
listing, then each agent by id, like the app's agent library.
  --base-url <url>   the service root, ending in /v0 (e.g. http://127.0.0.1:4010/v0)
  --json             one JSON object per line instead of a table
The API key is read from ${API_KEY_ENV} (never from a flag).`;

export async function runAgents(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandLine({
    args: argv,
    strict: true,
    options: {
      'base-url': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.out(agentsUsage);
    return EXIT.ok;
  }
  const baseUrl = values['base-url'];
  if (!baseUrl || !/^https?:\/\//i.test(baseUrl))
    throw new UsageError('--base-url is required: the service root with http:// or https://, ending in /v0');
  const apiKey = process.env[API_KEY_ENV];
  if (!apiKey) throw new UsageError(`set ${API_KEY_ENV} to the workspace's API key`);

  const client = createApiClient({
    baseUrl,
    apiKey: async () => apiKey,
    timeoutMs: TIMEOUT_MS,
    maxRetries: 2,
  });
  let agents;
  try {
    agents = await readAllAgents(client, {
      onRead: (done) => {
        if (io.interactive) io.status(`read ${formatCount(done)} agents`);
      },
    });
  } catch (error) {
    if (io.interactive) io.status(null);
    if (!isApiError(error)) throw error;
    const failure = agentServiceFailure(error, { baseUrl }, TIMEOUT_MS);
    io.err(`campaign-desk agents: ${terminalText(failure.message)}`);
    return EXIT.failed;
  }
  if (io.interactive) io.status(null);
  for (const a of agents) {
    const row = {
      id: a.id,
      name: a.name,
      language: a.language,
      versions: a.versionCount,
      archived: a.archived,
      variables: a.variables,
    };
    io.out(
      // Every field is the service's: its controls are made visible (a name cannot clear the screen).
      values.json
        ? jsonLine(row)
        : [
            a.id,
            a.name,
            a.language ?? '-',
            String(a.versionCount),
            a.archived ? 'archived' : 'active',
            a.variables.join(','),
          ]
            .map(terminalText)
            .join('\t'),
    );
  }
  return EXIT.ok;
}
