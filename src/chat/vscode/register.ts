import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import { webviewHtml } from '../../shared/webviewHtml';
import { CHAT_PANEL_TYPE, CHAT_VIEW_ID, type ChatPanelApi } from './api';
import { ChatController } from './controller';

function nonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

function setHtml(webview: vscode.Webview, controller: ChatController, extensionUri: vscode.Uri): void {
  webview.options = controller.webviewOptions(extensionUri);
  webview.html = webviewHtml({
    cspSource: webview.cspSource,
    nonce: nonce(),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.css')).toString(),
    title: vscode.l10n.t('Gateway Studio Chat'),
    lang: vscode.env.language,
    // A video tool's card plays the saved file.
    media: true,
  });
}

/**
 * The chat: a view in its own activity-bar container, the same chat in an editor panel ("Open
 * Chat"), and the editor commands. Returns the API the tools feature plugs into.
 */
export function registerChat(s: Services): ChatPanelApi {
  const { context } = s;
  const controller = new ChatController(s);
  context.subscriptions.push(controller);
  let panel: vscode.WebviewPanel | undefined;

  const adoptPanel = (p: vscode.WebviewPanel) => {
    panel = p;
    p.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'chat.svg');
    setHtml(p.webview, controller, context.extensionUri);
    const sub = controller.attach(p.webview, () => p.visible);
    p.onDidDispose(() => {
      sub.dispose();
      if (panel === p) panel = undefined;
    });
  };

  const openPanel = () => {
    if (panel) {
      panel.reveal(undefined, false);
      return;
    }
    adoptPanel(
      vscode.window.createWebviewPanel(
        CHAT_PANEL_TYPE,
        vscode.l10n.t('Gateway Studio Chat'),
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
        controller.webviewOptions(context.extensionUri),
      ),
    );
  };

  /** Shows the chat where the user has it: the open panel, else the sidebar view. */
  const reveal = async () => {
    if (panel) panel.reveal(undefined, false);
    else await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  };

  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(
      CHAT_VIEW_ID,
      {
        resolveWebviewView(view) {
          setHtml(view.webview, controller, context.extensionUri);
          const sub = controller.attach(view.webview, () => view.visible);
          view.onDidDispose(() => sub.dispose());
        },
      },
      // The host replays the state on `webview/ready`, so the page need not stay alive hidden.
      { webviewOptions: { retainContextWhenHidden: false } },
    ),
    vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, {
      deserializeWebviewPanel(p: vscode.WebviewPanel): Promise<void> {
        adoptPanel(p);
        return Promise.resolve();
      },
    }),
    vscode.commands.registerCommand('gatewayStudio.openChat', openPanel),
    vscode.commands.registerCommand('gatewayStudio.newChat', async () => {
      await reveal();
      await controller.newChatFromCommand();
    }),
    vscode.commands.registerCommand('gatewayStudio.exportChat', () => controller.exportMarkdown()),
    vscode.commands.registerCommand('gatewayStudio.showSystemPrompt', () => controller.showSystemPrompt()),
    // From the explorer: the clicked file, or all selected ones; from an editor tab: its file.
    vscode.commands.registerCommand(
      'gatewayStudio.addFileToChat',
      async (clicked?: vscode.Uri, selected?: vscode.Uri[]) => {
        const target = clicked instanceof vscode.Uri ? clicked : vscode.window.activeTextEditor?.document.uri;
        const uris = Array.isArray(selected) && selected.length > 0 ? selected : target ? [target] : [];
        if (uris.length === 0) {
          void vscode.window.showInformationMessage(vscode.l10n.t('Choose a file in the explorer or open one first.'));
          return;
        }
        await reveal();
        await controller.addFiles(uris);
      },
    ),
    vscode.commands.registerCommand('gatewayStudio.askAboutSelection', async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Open a file and select some code first.'));
        return;
      }
      const sel = editor.selection;
      const range = sel.isEmpty ? editor.document.lineAt(sel.active.line).range : sel;
      const text = editor.document.getText(range);
      if (!text.trim()) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Select some code first.'));
        return;
      }
      await reveal();
      controller.addContext({
        fileName: vscode.workspace.asRelativePath(editor.document.uri),
        language: editor.document.languageId,
        text,
        startLine: range.start.line,
        endLine: range.end.line,
      });
    }),
  );
  return controller;
}
