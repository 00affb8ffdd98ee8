// MCP servers from a repository's .mcp.json in our chat: server-everything (from npm, run from
// this checkout's node_modules) asks for approval in a modal, starts, and its echo and get-sum
// tools round-trip through a chat answer with the server named on the card. (Written with issue
// 38; run by the host e2e stage. Not covered yet: resources by @-mention and prompts from `/`,
// which the client does not offer yet.)
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const script = JSON.stringify([
  {
    calls: [
      { name: 'mcp_everything_echo', arguments: { message: 'hello from e2e' } },
      { name: 'mcp_everything_get-sum', arguments: { a: 2, b: 3 } },
    ],
  },
]);

export const journeys: Journey[] = [
  {
    name: 'mcp: server-everything from .mcp.json asks for approval, starts, and its echo and get-sum tools round-trip',
    settings: chatSettings,
    files: {
      '.mcp.json': JSON.stringify(
        { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } },
        null,
        2,
      ),
    },
    async run({ wb, gw, page, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      // The chat's MCP client loads with the chat and asks before the workspace's server starts.
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const asked = await dialog.innerText();
      assert.match(asked, /MCP server "everything"/);
      assert.match(asked, /server-everything[\\/]dist[\\/]index\.js stdio/);
      await shot('e2e-mcp-approval');
      await dialog.locator('.monaco-button', { hasText: 'Allow and start' }).click();
      // The server starts in the background; the tools menu lists its tools once it runs.
      await page.waitForTimeout(5_000);
      await sendMessage(chat, `use the server #tools ${script}`);
      for (let i = 0; i < 2; i++) {
        // Read once it asks: until its first update comes, a card drawn from the message is not live.
        const card = chat.locator('section.toolcard').nth(i);
        const allow = card.locator('button', { hasText: /^\s*Allow\s*$/ });
        await allow.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.match((await card.textContent()) ?? '', /MCP server "everything"/);
        await allow.click();
        await card.locator('.tc-state', { hasText: 'Done' }).waitFor({ timeout: UI_TIMEOUT });
      }
      // The model reads each result framed as the server's data; the cards show what the server said.
      const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results:' }).last();
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const text = await answer.innerText();
      assert.match(text, /mcp_everything_echo=Output of the tool "echo" of the MCP server "everything"/);
      assert.match(text, /mcp_everything_get-sum=Output of the tool "get-sum" of the MCP server "everything"/);
      const cards = chat.locator('section.toolcard');
      assert.match((await cards.nth(0).textContent()) ?? '', /hello from e2e/);
      assert.match((await cards.nth(1).textContent()) ?? '', /\b5\b/);
      await shot('e2e-mcp-round-trip');
    },
  },
];
