import { Injectable, type PipeTransform } from '@nestjs/common';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { OneClawError } from '@oneclaw/core';
import { WELL_FORMED_TEXT } from './body-schemas';

/** One Ajv for every request body schema (tool inputs use the registry's own). */
const ajv = new Ajv({ allErrors: true, strict: true });

/**
 * Validates a JSON body against a JSON Schema (the same schema the OpenAPI description shows).
 * Unknown fields are refused, not stripped (API-01): the schemas set additionalProperties:false.
 * A missing body counts as `{}`.
 */
@Injectable()
export class ValidateBody<T> implements PipeTransform<unknown, T> {
  private readonly validate: ValidateFunction<T>;

  constructor(readonly schema: Readonly<Record<string, unknown>>) {
    this.validate = ajv.compile<T>(schema);
  }

  transform(value: unknown): T {
    const body = value ?? {};
    if (this.validate(body)) return body;
    const problems = (this.validate.errors ?? []).map(describe);
    throw new OneClawError('invalid_body', `The request body is not valid: ${problems.join('; ')}. See /api/docs for the expected shape.`, { problems });
  }
}

function describe(error: ErrorObject): string {
  const where = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : 'body';
  if (error.keyword === 'additionalProperties') return `unknown field '${String(error.params.additionalProperty)}'`;
  if (error.keyword === 'required') return `missing field '${String(error.params.missingProperty)}'`;
  // Ajv's own words would be the pattern's source, which says nothing to someone who sent a broken emoji.
  if (error.keyword === 'pattern' && error.params.pattern === WELL_FORMED_TEXT) {
    return `${where} is not well-formed Unicode (it holds a lone UTF-16 surrogate, such as half of an emoji): send the whole character or leave it out`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}
