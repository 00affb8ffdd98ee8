import '@vscode/codicons/dist/codicon.css';
import './styles.css';
import { startChat, type VsCodeApi } from './app';

declare function acquireVsCodeApi(): VsCodeApi;

startChat(document.getElementById('app') ?? document.body, acquireVsCodeApi());
