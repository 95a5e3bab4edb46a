import type { ToolDefinition } from '../tool-definition';
import { formatTools } from './provider-formats';

const readFile: ToolDefinition = {
  name: 'read_file',
  description: 'Read the contents of a file from local storage',
  parameters: { type: 'object', properties: { path: { type: 'string', description: 'The file path to read' } }, required: ['path'] },
};
const listLabels: ToolDefinition = { name: 'gmail_list_labels', description: 'List the Gmail labels.', parameters: { type: 'object', properties: {} } };

describe('provider formats (T1)', () => {
  it('T1 OpenAI chat completions: {type: "function", function: {name, description, parameters}}', () => {
    expect(formatTools('openai', [readFile, listLabels])).toEqual({
      provider: 'openai',
      tools: [
        { type: 'function', function: { name: 'read_file', description: readFile.description, parameters: readFile.parameters } },
        { type: 'function', function: { name: 'gmail_list_labels', description: listLabels.description, parameters: { type: 'object', properties: {} } } },
      ],
    });
  });

  it('T1 Anthropic messages: {name, description, input_schema}', () => {
    expect(formatTools('anthropic', [readFile, listLabels])).toEqual({
      provider: 'anthropic',
      tools: [
        { name: 'read_file', description: readFile.description, input_schema: readFile.parameters },
        { name: 'gmail_list_labels', description: listLabels.description, input_schema: { type: 'object', properties: {} } },
      ],
    });
  });

  it('T1 Gemini: one {functionDeclarations} entry; a tool without parameters has no parameters field', () => {
    expect(formatTools('gemini', [readFile, listLabels])).toEqual({
      provider: 'gemini',
      tools: [
        {
          functionDeclarations: [
            { name: 'read_file', description: readFile.description, parameters: readFile.parameters },
            { name: 'gmail_list_labels', description: listLabels.description },
          ],
        },
      ],
    });
  });

  it('no tools is an empty tools list for every provider (Gemini rejects an empty functionDeclarations)', () => {
    expect(formatTools('openai', []).tools).toEqual([]);
    expect(formatTools('anthropic', []).tools).toEqual([]);
    expect(formatTools('gemini', []).tools).toEqual([]);
  });

  it('keeps the order it was given', () => {
    const names = formatTools('anthropic', [listLabels, readFile]).tools.map((t) => ('name' in t ? t.name : ''));
    expect(names).toEqual(['gmail_list_labels', 'read_file']);
  });
});
