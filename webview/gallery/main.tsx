import * as z from '../../src/shared/zod';
import { render } from 'preact';
import '../common/page.css';
import '../common/taskCard.css';
import './styles.css';
import { App } from './app';
import type { VsCodeApi } from '../common/vscodeApi';
import { connect } from './state';

// The CSP forbids eval; without `jitless` zod probes `new Function` and a violation is reported.
z.config({ jitless: true });

declare function acquireVsCodeApi(): VsCodeApi;

const root = document.getElementById('app') ?? document.body;
const store = connect(acquireVsCodeApi());
render(<App store={store} />, root);
store.post({ type: 'webview/ready' });
