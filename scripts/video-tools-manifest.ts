// Writes the video tools' model descriptions and input schemas into package.json
// (`contributes.languageModelTools`) from src/video/core, where the chat's copies come from too:
// `npx tsx scripts/video-tools-manifest.ts`. test/unit/video/tools/core/agentText.test.ts fails when they drift.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateToolDescription, statusToolDescription } from '../src/video/tools/core/agentText';
import { catalogRulesText } from '../src/video/tools/core/catalogText';
import { GENERATE_VIDEO_JSON_SCHEMA, VIDEO_STATUS_JSON_SCHEMA } from '../src/video/tools/core/toolInput';

const file = join(__dirname, '..', 'package.json');
const pkg = JSON.parse(readFileSync(file, 'utf8')) as {
  contributes: { languageModelTools: { name: string; modelDescription: string; inputSchema: unknown }[] };
};
const want: Record<string, { modelDescription: string; inputSchema: unknown }> = {
  gatewayStudio_generateVideo: {
    modelDescription: generateToolDescription(catalogRulesText()),
    inputSchema: GENERATE_VIDEO_JSON_SCHEMA,
  },
  gatewayStudio_videoStatus: { modelDescription: statusToolDescription(), inputSchema: VIDEO_STATUS_JSON_SCHEMA },
};
for (const t of pkg.contributes.languageModelTools) {
  const w = want[t.name];
  if (w) Object.assign(t, w);
}
writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
