import './zodConfig';
import '@vscode/codicons/dist/codicon.css';
import './styles.css';
import { ChatApp, type VsCodeApi } from './app';

declare function acquireVsCodeApi(): VsCodeApi;

const root = document.getElementById('app') ?? document.body;
const app = new ChatApp(root, acquireVsCodeApi());
app.start();
