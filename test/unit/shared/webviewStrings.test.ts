import { test } from 'node:test';
import { WEBVIEW_STRINGS } from '../../../src/shared/webviewStrings';
import { checkStringTable } from '../../support/stringTables';

void test('every webview string is distinct, non-empty English, translated with the same placeholders', () => {
  checkStringTable(WEBVIEW_STRINGS);
});
