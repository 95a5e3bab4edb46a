import { describe, expect, it } from '@jest/globals';
import { OneClawError } from '@oneclaw/core';
import { builtinTool } from './builtin-tool';
import { toolError } from './tool-result';

const definition = { name: 'probe', description: 'A probe.', parameters: { type: 'object' as const, properties: {} } };
const context = { signal: new AbortController().signal, sessionId: 's', callId: 'c', env: {} };

describe('builtinTool', () => {
  it('wraps a returned string as a success', async () => {
    await expect(builtinTool(definition, () => 'done').execute({}, context)).resolves.toEqual({ status: 'success', result: 'done' });
  });

  it('passes a returned ToolResult through unchanged', async () => {
    const failure = toolError('not_found', 'No such thing.');
    await expect(builtinTool(definition, async () => failure).execute({}, context)).resolves.toBe(failure);
  });

  it("turns a thrown OneClawError into an error value with the error's code (errors as values at the boundary)", async () => {
    const tool = builtinTool(definition, () => {
      throw new OneClawError('agent_not_found', "No agent 'x'. Call list_agents to see them.");
    });
    await expect(tool.execute({}, context)).resolves.toEqual({ status: 'error', errorType: 'agent_not_found', message: "No agent 'x'. Call list_agents to see them." });
  });

  it('lets any other throw reach the engine (a bug, reported there as execution_error)', async () => {
    const tool = builtinTool(definition, () => {
      throw new TypeError('boom');
    });
    await expect(tool.execute({}, context)).rejects.toThrow('boom');
  });
});
