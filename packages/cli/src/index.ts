export { buildProgram, main } from './main.js';
export { runDoctor, formatDoctor, type DoctorEntry } from './doctor.js';
