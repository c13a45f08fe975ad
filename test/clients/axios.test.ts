/** axios, its instance created at import time; in Node it uses the http adapter (node:http/https). */
import axios from 'axios';
import { defineHttpClientSuite } from './http-client-suite.js';

const api = axios.create({ validateStatus: () => true });

defineHttpClientSuite('axios', {
  async send(method, url, body) {
    const response = await api.request({ method, url, data: body });
    return { status: response.status, body: response.data as unknown };
  },
});
