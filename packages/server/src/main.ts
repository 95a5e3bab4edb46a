import 'reflect-metadata';
import { createApp } from './create-app';
import { loadServerConfig } from './server-config';

async function main(): Promise<void> {
  const config = loadServerConfig();
  const app = await createApp({ config });
  await app.listen(config.port, config.host);
  // Printed for people and scripts alike: the address actually bound (PORT=0 picks a free port).
  console.log(`OneClaw server listening on ${await app.getUrl()} (data: ${config.dataDir})`);
}

main().catch((error: unknown) => {
  const e = error as { code?: string; message?: string };
  console.error(`OneClaw server failed to start${e.code ? ` [${e.code}]` : ''}: ${e.message ?? String(error)}`);
  process.exit(1);
});
