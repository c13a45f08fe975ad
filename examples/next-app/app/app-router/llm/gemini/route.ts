import { GoogleGenAI } from '@google/genai';
import { ndjson } from '../../../../lib/ndjson';

const ai = new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY ?? 'gemini-test-not-a-key' });
const params = { model: 'gemini-2.5-flash', contents: 'What is 2 + 2?' };

/** POST { call }: `generateContentStream` (`stream`), or `generateContent` (`generate`). */
export async function POST(request: Request): Promise<Response> {
  const { call } = (await request.json()) as { call: string };
  return ndjson(async (send) => {
    if (call === 'stream') {
      for await (const chunk of await ai.models.generateContentStream(params)) {
        const parts = chunk.candidates?.[0]?.content?.parts ?? [];
        send({ text: parts.map((part) => part.text ?? '').join(''), thought: parts.some((part) => part.thought === true), functionCalls: chunk.functionCalls, finishReason: chunk.candidates?.[0]?.finishReason, usage: chunk.usageMetadata });
      }
      return null;
    }
    if (call === 'generate') {
      const response = await ai.models.generateContent(params);
      return { text: response.functionCalls === undefined ? response.text : undefined, functionCalls: response.functionCalls, finishReason: response.candidates?.[0]?.finishReason, usage: response.usageMetadata, modelVersion: response.modelVersion };
    }
    throw new Error(`No call ${call}`);
  });
}
