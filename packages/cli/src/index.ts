export { buildProgram, loadServeModules, main, type FrontInjection } from './main.js';
export { runDoctor, formatDoctor, type DoctorEntry } from './doctor.js';
