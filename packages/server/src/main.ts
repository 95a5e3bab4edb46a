import 'reflect-metadata';
import { createApp } from './create-app';
import { createLogger, type Logger } from './logging/logger';
import { installProcessHandlers } from './logging/process-handlers';
import { ensureDataDir } from './persistence/data-dir';
import { loadOrCreateApiToken } from './security/api-token';
import { SecretRedactor } from './security/secret-redactor';
import { loadServerConfig, secretsOf, storeName } from './server-config';

let logger: Logger | undefined;

async function main(): Promise<void> {
  const config = loadServerConfig();
  // Before the token file: every file the server keeps is below it, so say once what is wrong with it.
  ensureDataDir(config.dataDir);
  const redactor = new SecretRedactor();
  for (const secret of secretsOf(config)) redactor.add(secret);
  const token = loadOrCreateApiToken(config.dataDir, config.apiToken ? { envToken: config.apiToken } : {});
  redactor.add(token.token);
  logger = createLogger({ level: config.logLevel, redactor });
  installProcessHandlers(logger);
  if (token.permissionsFixed) logger.warn(`${token.file} was readable by other users; its mode is now 0600. Consider rotating the token.`);
  const app = await createApp({ config, apiToken: token.token, logger, redactor });
  await app.listen(config.port, config.host);
  const url = (await app.getUrl()).replace('[::1]', 'localhost');
  // Printed for people and scripts alike: the address actually bound (PORT=0 picks a free port).
  console.log(`OneClaw server listening on ${url} (data: ${config.dataDir}, store: ${storeName(config)})`);
  if (token.created) {
    // Shown once, on the start that created it; it stays in the data directory's api-token file.
    // Printed, never logged: the console is the user's terminal, the log may be shipped elsewhere.
    console.log(`API token (also in ${token.file}): ${token.token}`);
    // In the fragment, which browsers never send: the token reaches no server or proxy log.
    console.log(`Open the web UI: ${url}/#token=${encodeURIComponent(token.token)}`);
  } else {
    console.log(`API token: in ${token.file}${config.apiToken ? ' (from ONECLAW_API_TOKEN)' : ''}`);
    console.log(`Web UI: ${url}/ (sign in with the token ${config.apiToken ? 'set in ONECLAW_API_TOKEN' : `in ${token.file}`})`);
  }
  if (!config.provider)
    console.log(
      'No language model in the environment: set ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or OPENAI_BASE_URL, or use providers created with the config tools (docs/configuration.md).',
    );
}

main().catch((error: unknown) => {
  const e = error as { code?: string; message?: string };
  // Once the logger exists, failures go through it (secrets scrubbed, SEC-06).
  if (logger) logger.fatal({ err: error }, 'failed to start');
  else console.error(`OneClaw server failed to start${e.code ? ` [${e.code}]` : ''}: ${e.message ?? String(error)}`);
  process.exit(1);
});
