import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ToolRuntime } from '../tools/tool-runtime';
import { ConfigServices } from './config-services';

/**
 * Reads the configuration stream once the app is built, before it listens, and applies the
 * recorded tool enablement to the complete registry (built-ins and the JS catalogue).
 */
@Injectable()
export class ConfigLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly config: ConfigServices,
    private readonly tools: ToolRuntime,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.config.start(this.tools.registry);
  }

  onApplicationShutdown(): void {
    this.config.close();
  }
}
