/* Generated from schemas/ by `npm run generate:validators`. Do not edit by hand. */
import helper0Module from "ajv/dist/runtime/ucs2length.js";
const helper0 = helper0Module.default ?? helper0Module;
import helper1Module from "ajv/dist/runtime/equal.js";
const helper1 = helper1Module.default ?? helper1Module;
import { fullFormats } from "ajv-formats/dist/formats.js";
export const validate_catalog = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://syllabus.example/schemas/frontmatter/catalog.schema.json","title":"content/catalog.md frontmatter","type":"object","additionalProperties":false,"required":["courses"],"properties":{"courses":{"description":"Course ids in display order.","type":"array","items":{"$ref":"../defs.schema.json#/$defs/Id"}}}};
const schema33 = {"description":"A course, class, lesson, changelog or roadmap id: lowercase letters and digits in hyphen-separated words, at most 64 characters.","type":"string","minLength":1,"maxLength":64,"pattern":"^[a-z0-9]+(?:-[a-z0-9]+)*$"};
const func1 = helper0;
const pattern4 = new RegExp("^[a-z0-9]+(?:-[a-z0-9]+)*$", "u");

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://syllabus.example/schemas/frontmatter/catalog.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.courses === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "courses"},message:"must have required property '"+"courses"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!(key0 === "courses")){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.courses !== undefined){
let data0 = data.courses;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(typeof data1 === "string"){
if(func1(data1) > 64){
const err2 = {instancePath:instancePath+"/courses/" + i0,schemaPath:"../defs.schema.json#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(func1(data1) < 1){
const err3 = {instancePath:instancePath+"/courses/" + i0,schemaPath:"../defs.schema.json#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(!pattern4.test(data1)){
const err4 = {instancePath:instancePath+"/courses/" + i0,schemaPath:"../defs.schema.json#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/courses/" + i0,schemaPath:"../defs.schema.json#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
else {
const err6 = {instancePath:instancePath+"/courses",schemaPath:"#/properties/courses/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.courses.type,parentSchema:schema31.properties.courses,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
else {
const err7 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const validate_course = validate22;
const schema34 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://syllabus.example/schemas/frontmatter/course.schema.json","title":"content/courses/<course-id>/index.md frontmatter","type":"object","additionalProperties":false,"required":["title","color","status","classes"],"properties":{"title":{"$ref":"../defs.schema.json#/$defs/Text"},"blurb":{"$ref":"../defs.schema.json#/$defs/Paragraph"},"tagline":{"$ref":"../defs.schema.json#/$defs/Text"},"color":{"$ref":"../defs.schema.json#/$defs/Color"},"status":{"$ref":"../defs.schema.json#/$defs/Status"},"classes":{"description":"Class ids in teaching order.","type":"array","items":{"$ref":"../defs.schema.json#/$defs/Id"}},"aliases":{"$ref":"../defs.schema.json#/$defs/Aliases"}}};
const schema35 = {"$comment":"One line of text: no control character at all, not even tab or a line break, and no Unicode non-character (src/content/text-characters.ts).","type":"string","minLength":1,"maxLength":500,"pattern":"\\S"};
const schema36 = {"$comment":"Prose that may span lines (a YAML block scalar): tab and line breaks allowed, no other control character and no Unicode non-character (src/content/text-characters.ts).","type":"string","minLength":1,"maxLength":500,"pattern":"\\S"};
const schema38 = {"description":"A hex colour #rrggbb.","type":"string","pattern":"^#[0-9a-fA-F]{6}$"};
const schema39 = {"description":"live: open to learners; soon: announced, not startable.","type":"string","enum":["live","soon"]};
const pattern5 = new RegExp("\\S", "u");
const pattern8 = new RegExp("^#[0-9a-fA-F]{6}$", "u");
const schema41 = {"description":"Ids this resource was published under before: a request for one is redirected (308) to the resource, so a rename never breaks a client. Unique, and never a live id of the same kind.","type":"array","minItems":1,"uniqueItems":true,"items":{"$ref":"#/$defs/Id"}};
const func0 = helper1;

function validate23(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate23.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(Array.isArray(data)){
if(data.length < 1){
const err0 = {instancePath,schemaPath:"#/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
let data0 = data[i0];
if(typeof data0 === "string"){
if(func1(data0) > 64){
const err1 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(func1(data0) < 1){
const err2 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(!pattern4.test(data0)){
const err3 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
let i1 = data.length;
let j0;
if(i1 > 1){
outer0:
for(;i1--;){
for(j0 = i1; j0--;){
if(func0(data[i1], data[j0])){
const err5 = {instancePath,schemaPath:"#/uniqueItems",keyword:"uniqueItems",params:{i: i1, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)",schema:true,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
break outer0;
}
}
}
}
}
else {
const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema41.type,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
validate23.errors = vErrors;
return errors === 0;
}
validate23.evaluated = {"items":true,"dynamicProps":false,"dynamicItems":false};


function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://syllabus.example/schemas/frontmatter/course.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate22.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.title === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "title"},message:"must have required property '"+"title"+"'",schema:schema34.required,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.color === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "color"},message:"must have required property '"+"color"+"'",schema:schema34.required,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.status === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'",schema:schema34.required,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.classes === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "classes"},message:"must have required property '"+"classes"+"'",schema:schema34.required,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
for(const key0 in data){
if(!(((((((key0 === "title") || (key0 === "blurb")) || (key0 === "tagline")) || (key0 === "color")) || (key0 === "status")) || (key0 === "classes")) || (key0 === "aliases"))){
const err4 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.title !== undefined){
let data0 = data.title;
if(typeof data0 === "string"){
if(func1(data0) > 500){
const err5 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(func1(data0) < 1){
const err6 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(!pattern5.test(data0)){
const err7 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.blurb !== undefined){
let data1 = data.blurb;
if(typeof data1 === "string"){
if(func1(data1) > 500){
const err9 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema36,data:data1};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(func1(data1) < 1){
const err10 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema36,data:data1};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(!pattern5.test(data1)){
const err11 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema36,data:data1};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.type,parentSchema:schema36,data:data1};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.tagline !== undefined){
let data2 = data.tagline;
if(typeof data2 === "string"){
if(func1(data2) > 500){
const err13 = {instancePath:instancePath+"/tagline",schemaPath:"../defs.schema.json#/$defs/Text/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema35,data:data2};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(func1(data2) < 1){
const err14 = {instancePath:instancePath+"/tagline",schemaPath:"../defs.schema.json#/$defs/Text/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema35,data:data2};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(!pattern5.test(data2)){
const err15 = {instancePath:instancePath+"/tagline",schemaPath:"../defs.schema.json#/$defs/Text/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema35,data:data2};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/tagline",schemaPath:"../defs.schema.json#/$defs/Text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data2};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.color !== undefined){
let data3 = data.color;
if(typeof data3 === "string"){
if(!pattern8.test(data3)){
const err17 = {instancePath:instancePath+"/color",schemaPath:"../defs.schema.json#/$defs/Color/pattern",keyword:"pattern",params:{pattern: "^#[0-9a-fA-F]{6}$"},message:"must match pattern \""+"^#[0-9a-fA-F]{6}$"+"\"",schema:"^#[0-9a-fA-F]{6}$",parentSchema:schema38,data:data3};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
else {
const err18 = {instancePath:instancePath+"/color",schemaPath:"../defs.schema.json#/$defs/Color/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema38.type,parentSchema:schema38,data:data3};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data.status !== undefined){
let data4 = data.status;
if(typeof data4 !== "string"){
const err19 = {instancePath:instancePath+"/status",schemaPath:"../defs.schema.json#/$defs/Status/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.type,parentSchema:schema39,data:data4};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if(!((data4 === "live") || (data4 === "soon"))){
const err20 = {instancePath:instancePath+"/status",schemaPath:"../defs.schema.json#/$defs/Status/enum",keyword:"enum",params:{allowedValues: schema39.enum},message:"must be equal to one of the allowed values",schema:schema39.enum,parentSchema:schema39,data:data4};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.classes !== undefined){
let data5 = data.classes;
if(Array.isArray(data5)){
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
let data6 = data5[i0];
if(typeof data6 === "string"){
if(func1(data6) > 64){
const err21 = {instancePath:instancePath+"/classes/" + i0,schemaPath:"../defs.schema.json#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data6};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
if(func1(data6) < 1){
const err22 = {instancePath:instancePath+"/classes/" + i0,schemaPath:"../defs.schema.json#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data6};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
if(!pattern4.test(data6)){
const err23 = {instancePath:instancePath+"/classes/" + i0,schemaPath:"../defs.schema.json#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data6};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
else {
const err24 = {instancePath:instancePath+"/classes/" + i0,schemaPath:"../defs.schema.json#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data6};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
}
else {
const err25 = {instancePath:instancePath+"/classes",schemaPath:"#/properties/classes/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema34.properties.classes.type,parentSchema:schema34.properties.classes,data:data5};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data.aliases !== undefined){
if(!(validate23(data.aliases, {instancePath:instancePath+"/aliases",parentData:data,parentDataProperty:"aliases",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate23.errors : vErrors.concat(validate23.errors);
errors = vErrors.length;
}
}
}
else {
const err26 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema34.type,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
validate22.errors = vErrors;
return errors === 0;
}
validate22.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const validate_class = validate25;
const schema43 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://syllabus.example/schemas/frontmatter/class.schema.json","title":"content/courses/<course-id>/<class-id>/index.md frontmatter","type":"object","additionalProperties":false,"required":["name","status","lessons"],"properties":{"name":{"$ref":"../defs.schema.json#/$defs/Text"},"blurb":{"$ref":"../defs.schema.json#/$defs/Paragraph"},"status":{"$ref":"../defs.schema.json#/$defs/Status"},"lessons":{"description":"Lesson ids in teaching order (empty for a soon class).","type":"array","items":{"$ref":"../defs.schema.json#/$defs/Id"}},"soon":{"description":"Topics announced but not built yet.","type":"array","items":{"$ref":"../defs.schema.json#/$defs/Text"}},"aliases":{"$ref":"../defs.schema.json#/$defs/Aliases"}}};

function validate26(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate26.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(Array.isArray(data)){
if(data.length < 1){
const err0 = {instancePath,schemaPath:"#/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
let data0 = data[i0];
if(typeof data0 === "string"){
if(func1(data0) > 64){
const err1 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(func1(data0) < 1){
const err2 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(!pattern4.test(data0)){
const err3 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
let i1 = data.length;
let j0;
if(i1 > 1){
outer0:
for(;i1--;){
for(j0 = i1; j0--;){
if(func0(data[i1], data[j0])){
const err5 = {instancePath,schemaPath:"#/uniqueItems",keyword:"uniqueItems",params:{i: i1, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)",schema:true,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
break outer0;
}
}
}
}
}
else {
const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema41.type,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
validate26.errors = vErrors;
return errors === 0;
}
validate26.evaluated = {"items":true,"dynamicProps":false,"dynamicItems":false};


function validate25(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://syllabus.example/schemas/frontmatter/class.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate25.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema43.required,parentSchema:schema43,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.status === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'",schema:schema43.required,parentSchema:schema43,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.lessons === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "lessons"},message:"must have required property '"+"lessons"+"'",schema:schema43.required,parentSchema:schema43,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!((((((key0 === "name") || (key0 === "blurb")) || (key0 === "status")) || (key0 === "lessons")) || (key0 === "soon")) || (key0 === "aliases"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema43,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(func1(data0) > 500){
const err4 = {instancePath:instancePath+"/name",schemaPath:"../defs.schema.json#/$defs/Text/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(func1(data0) < 1){
const err5 = {instancePath:instancePath+"/name",schemaPath:"../defs.schema.json#/$defs/Text/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(!pattern5.test(data0)){
const err6 = {instancePath:instancePath+"/name",schemaPath:"../defs.schema.json#/$defs/Text/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/name",schemaPath:"../defs.schema.json#/$defs/Text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.blurb !== undefined){
let data1 = data.blurb;
if(typeof data1 === "string"){
if(func1(data1) > 500){
const err8 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema36,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(func1(data1) < 1){
const err9 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema36,data:data1};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(!pattern5.test(data1)){
const err10 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema36,data:data1};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.type,parentSchema:schema36,data:data1};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.status !== undefined){
let data2 = data.status;
if(typeof data2 !== "string"){
const err12 = {instancePath:instancePath+"/status",schemaPath:"../defs.schema.json#/$defs/Status/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.type,parentSchema:schema39,data:data2};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(!((data2 === "live") || (data2 === "soon"))){
const err13 = {instancePath:instancePath+"/status",schemaPath:"../defs.schema.json#/$defs/Status/enum",keyword:"enum",params:{allowedValues: schema39.enum},message:"must be equal to one of the allowed values",schema:schema39.enum,parentSchema:schema39,data:data2};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.lessons !== undefined){
let data3 = data.lessons;
if(Array.isArray(data3)){
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
let data4 = data3[i0];
if(typeof data4 === "string"){
if(func1(data4) > 64){
const err14 = {instancePath:instancePath+"/lessons/" + i0,schemaPath:"../defs.schema.json#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data4};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(func1(data4) < 1){
const err15 = {instancePath:instancePath+"/lessons/" + i0,schemaPath:"../defs.schema.json#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data4};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(!pattern4.test(data4)){
const err16 = {instancePath:instancePath+"/lessons/" + i0,schemaPath:"../defs.schema.json#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data4};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/lessons/" + i0,schemaPath:"../defs.schema.json#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data4};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/lessons",schemaPath:"#/properties/lessons/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema43.properties.lessons.type,parentSchema:schema43.properties.lessons,data:data3};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data.soon !== undefined){
let data5 = data.soon;
if(Array.isArray(data5)){
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
let data6 = data5[i1];
if(typeof data6 === "string"){
if(func1(data6) > 500){
const err19 = {instancePath:instancePath+"/soon/" + i1,schemaPath:"../defs.schema.json#/$defs/Text/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema35,data:data6};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if(func1(data6) < 1){
const err20 = {instancePath:instancePath+"/soon/" + i1,schemaPath:"../defs.schema.json#/$defs/Text/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema35,data:data6};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(!pattern5.test(data6)){
const err21 = {instancePath:instancePath+"/soon/" + i1,schemaPath:"../defs.schema.json#/$defs/Text/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema35,data:data6};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
else {
const err22 = {instancePath:instancePath+"/soon/" + i1,schemaPath:"../defs.schema.json#/$defs/Text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data6};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath:instancePath+"/soon",schemaPath:"#/properties/soon/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema43.properties.soon.type,parentSchema:schema43.properties.soon,data:data5};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data.aliases !== undefined){
if(!(validate26(data.aliases, {instancePath:instancePath+"/aliases",parentData:data,parentDataProperty:"aliases",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate26.errors : vErrors.concat(validate26.errors);
errors = vErrors.length;
}
}
}
else {
const err24 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema43.type,parentSchema:schema43,data};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
validate25.errors = vErrors;
return errors === 0;
}
validate25.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const validate_lesson = validate28;
const schema51 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://syllabus.example/schemas/frontmatter/lesson.schema.json","title":"content/courses/<course-id>/<class-id>/<lesson-id>.md frontmatter","description":"The body is the lesson itself: one step per level-2 heading (## …).","type":"object","additionalProperties":false,"required":["title","lang"],"properties":{"title":{"$ref":"../defs.schema.json#/$defs/Text"},"blurb":{"$ref":"../defs.schema.json#/$defs/Paragraph"},"lang":{"$ref":"../defs.schema.json#/$defs/Lang"},"aliases":{"$ref":"../defs.schema.json#/$defs/Aliases"}}};
const schema54 = {"description":"The programming language a lesson teaches in, lowercase (python, sql, bash, typescript, …).","type":"string","minLength":1,"maxLength":32,"pattern":"^[a-z][a-z0-9+#.-]*$"};
const pattern18 = new RegExp("^[a-z][a-z0-9+#.-]*$", "u");

function validate29(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate29.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(Array.isArray(data)){
if(data.length < 1){
const err0 = {instancePath,schemaPath:"#/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
let data0 = data[i0];
if(typeof data0 === "string"){
if(func1(data0) > 64){
const err1 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(func1(data0) < 1){
const err2 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(!pattern4.test(data0)){
const err3 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
let i1 = data.length;
let j0;
if(i1 > 1){
outer0:
for(;i1--;){
for(j0 = i1; j0--;){
if(func0(data[i1], data[j0])){
const err5 = {instancePath,schemaPath:"#/uniqueItems",keyword:"uniqueItems",params:{i: i1, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)",schema:true,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
break outer0;
}
}
}
}
}
else {
const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema41.type,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
validate29.errors = vErrors;
return errors === 0;
}
validate29.evaluated = {"items":true,"dynamicProps":false,"dynamicItems":false};


function validate28(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://syllabus.example/schemas/frontmatter/lesson.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate28.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.title === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "title"},message:"must have required property '"+"title"+"'",schema:schema51.required,parentSchema:schema51,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.lang === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "lang"},message:"must have required property '"+"lang"+"'",schema:schema51.required,parentSchema:schema51,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!((((key0 === "title") || (key0 === "blurb")) || (key0 === "lang")) || (key0 === "aliases"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema51,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.title !== undefined){
let data0 = data.title;
if(typeof data0 === "string"){
if(func1(data0) > 500){
const err3 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(func1(data0) < 1){
const err4 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!pattern5.test(data0)){
const err5 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.blurb !== undefined){
let data1 = data.blurb;
if(typeof data1 === "string"){
if(func1(data1) > 500){
const err7 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema36,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(func1(data1) < 1){
const err8 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema36,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(!pattern5.test(data1)){
const err9 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema36,data:data1};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.type,parentSchema:schema36,data:data1};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.lang !== undefined){
let data2 = data.lang;
if(typeof data2 === "string"){
if(func1(data2) > 32){
const err11 = {instancePath:instancePath+"/lang",schemaPath:"../defs.schema.json#/$defs/Lang/maxLength",keyword:"maxLength",params:{limit: 32},message:"must NOT have more than 32 characters",schema:32,parentSchema:schema54,data:data2};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(func1(data2) < 1){
const err12 = {instancePath:instancePath+"/lang",schemaPath:"../defs.schema.json#/$defs/Lang/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema54,data:data2};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(!pattern18.test(data2)){
const err13 = {instancePath:instancePath+"/lang",schemaPath:"../defs.schema.json#/$defs/Lang/pattern",keyword:"pattern",params:{pattern: "^[a-z][a-z0-9+#.-]*$"},message:"must match pattern \""+"^[a-z][a-z0-9+#.-]*$"+"\"",schema:"^[a-z][a-z0-9+#.-]*$",parentSchema:schema54,data:data2};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/lang",schemaPath:"../defs.schema.json#/$defs/Lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema54.type,parentSchema:schema54,data:data2};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.aliases !== undefined){
if(!(validate29(data.aliases, {instancePath:instancePath+"/aliases",parentData:data,parentDataProperty:"aliases",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate29.errors : vErrors.concat(validate29.errors);
errors = vErrors.length;
}
}
}
else {
const err15 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema51.type,parentSchema:schema51,data};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
validate28.errors = vErrors;
return errors === 0;
}
validate28.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const validate_changelog = validate31;
const schema57 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://syllabus.example/schemas/frontmatter/changelog-entry.schema.json","title":"content/changelog/<slug>-<YYYY-MM-DD>.md frontmatter","description":"The body is exactly one paragraph. The date comes from the file name.","type":"object","additionalProperties":false,"required":["kind","title","blurb"],"properties":{"kind":{"$ref":"../defs.schema.json#/$defs/ChangeKind"},"title":{"$ref":"../defs.schema.json#/$defs/Text"},"blurb":{"$ref":"../defs.schema.json#/$defs/Paragraph"},"deprecates":{"type":"array","items":{"$ref":"../defs.schema.json#/$defs/Deprecation"}},"aliases":{"$ref":"../defs.schema.json#/$defs/Aliases"},"removes":{"description":"Published ids this change retires for good, on the entry's date: the entry announces their removal, so they may leave the catalog without an alias (docs/content.md, Ids that never break).","type":"object","additionalProperties":false,"properties":{"courses":{"type":"array","minItems":1,"uniqueItems":true,"items":{"$ref":"../defs.schema.json#/$defs/Id"}},"classes":{"description":"Each with its course: a class id means something only within its course.","type":"array","minItems":1,"uniqueItems":true,"items":{"type":"object","additionalProperties":false,"required":["course","id"],"properties":{"course":{"$ref":"../defs.schema.json#/$defs/Id"},"id":{"$ref":"../defs.schema.json#/$defs/Id"}}}},"lessons":{"type":"array","minItems":1,"uniqueItems":true,"items":{"$ref":"../defs.schema.json#/$defs/Id"}},"changelog":{"type":"array","minItems":1,"uniqueItems":true,"items":{"$ref":"../defs.schema.json#/$defs/Id"}}}}}};
const schema58 = {"type":"string","enum":["course","class","lesson","feature"]};
const schema61 = {"description":"A route this change deprecates and the day it stops being served.","type":"object","additionalProperties":false,"required":["path","sunset"],"properties":{"path":{"description":"A route of the API, as in the OpenAPI document (e.g. /v1/roadmap or /v1/courses/{course_id}).","type":"string","pattern":"^/"},"sunset":{"$ref":"#/$defs/Date"}}};
const schema62 = {"description":"A calendar date, YYYY-MM-DD.","type":"string","format":"date"};
const pattern22 = new RegExp("^/", "u");
const formats0 = fullFormats.date;

function validate32(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate32.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.path === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "path"},message:"must have required property '"+"path"+"'",schema:schema61.required,parentSchema:schema61,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.sunset === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "sunset"},message:"must have required property '"+"sunset"+"'",schema:schema61.required,parentSchema:schema61,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!((key0 === "path") || (key0 === "sunset"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema61,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.path !== undefined){
let data0 = data.path;
if(typeof data0 === "string"){
if(!pattern22.test(data0)){
const err3 = {instancePath:instancePath+"/path",schemaPath:"#/properties/path/pattern",keyword:"pattern",params:{pattern: "^/"},message:"must match pattern \""+"^/"+"\"",schema:"^/",parentSchema:schema61.properties.path,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/path",schemaPath:"#/properties/path/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema61.properties.path.type,parentSchema:schema61.properties.path,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.sunset !== undefined){
let data1 = data.sunset;
if(typeof data1 === "string"){
if(!(formats0.validate(data1))){
const err5 = {instancePath:instancePath+"/sunset",schemaPath:"#/$defs/Date/format",keyword:"format",params:{format: "date"},message:"must match format \""+"date"+"\"",schema:"date",parentSchema:schema62,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/sunset",schemaPath:"#/$defs/Date/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema62.type,parentSchema:schema62,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
else {
const err7 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema61.type,parentSchema:schema61,data};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
validate32.errors = vErrors;
return errors === 0;
}
validate32.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate34(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate34.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(Array.isArray(data)){
if(data.length < 1){
const err0 = {instancePath,schemaPath:"#/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
let data0 = data[i0];
if(typeof data0 === "string"){
if(func1(data0) > 64){
const err1 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(func1(data0) < 1){
const err2 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(!pattern4.test(data0)){
const err3 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/" + i0,schemaPath:"#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
let i1 = data.length;
let j0;
if(i1 > 1){
outer0:
for(;i1--;){
for(j0 = i1; j0--;){
if(func0(data[i1], data[j0])){
const err5 = {instancePath,schemaPath:"#/uniqueItems",keyword:"uniqueItems",params:{i: i1, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)",schema:true,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
break outer0;
}
}
}
}
}
else {
const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema41.type,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
validate34.errors = vErrors;
return errors === 0;
}
validate34.evaluated = {"items":true,"dynamicProps":false,"dynamicItems":false};


function validate31(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://syllabus.example/schemas/frontmatter/changelog-entry.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate31.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.kind === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema57.required,parentSchema:schema57,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.title === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "title"},message:"must have required property '"+"title"+"'",schema:schema57.required,parentSchema:schema57,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.blurb === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "blurb"},message:"must have required property '"+"blurb"+"'",schema:schema57.required,parentSchema:schema57,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!((((((key0 === "kind") || (key0 === "title")) || (key0 === "blurb")) || (key0 === "deprecates")) || (key0 === "aliases")) || (key0 === "removes"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema57,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.kind !== undefined){
let data0 = data.kind;
if(typeof data0 !== "string"){
const err4 = {instancePath:instancePath+"/kind",schemaPath:"../defs.schema.json#/$defs/ChangeKind/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema58.type,parentSchema:schema58,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!((((data0 === "course") || (data0 === "class")) || (data0 === "lesson")) || (data0 === "feature"))){
const err5 = {instancePath:instancePath+"/kind",schemaPath:"../defs.schema.json#/$defs/ChangeKind/enum",keyword:"enum",params:{allowedValues: schema58.enum},message:"must be equal to one of the allowed values",schema:schema58.enum,parentSchema:schema58,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.title !== undefined){
let data1 = data.title;
if(typeof data1 === "string"){
if(func1(data1) > 500){
const err6 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(func1(data1) < 1){
const err7 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(!pattern5.test(data1)){
const err8 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.blurb !== undefined){
let data2 = data.blurb;
if(typeof data2 === "string"){
if(func1(data2) > 500){
const err10 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema36,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(func1(data2) < 1){
const err11 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema36,data:data2};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(!pattern5.test(data2)){
const err12 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema36,data:data2};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/blurb",schemaPath:"../defs.schema.json#/$defs/Paragraph/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.type,parentSchema:schema36,data:data2};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.deprecates !== undefined){
let data3 = data.deprecates;
if(Array.isArray(data3)){
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
if(!(validate32(data3[i0], {instancePath:instancePath+"/deprecates/" + i0,parentData:data3,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate32.errors : vErrors.concat(validate32.errors);
errors = vErrors.length;
}
}
}
else {
const err14 = {instancePath:instancePath+"/deprecates",schemaPath:"#/properties/deprecates/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema57.properties.deprecates.type,parentSchema:schema57.properties.deprecates,data:data3};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.aliases !== undefined){
if(!(validate34(data.aliases, {instancePath:instancePath+"/aliases",parentData:data,parentDataProperty:"aliases",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate34.errors : vErrors.concat(validate34.errors);
errors = vErrors.length;
}
}
if(data.removes !== undefined){
let data6 = data.removes;
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
for(const key1 in data6){
if(!((((key1 === "courses") || (key1 === "classes")) || (key1 === "lessons")) || (key1 === "changelog"))){
const err15 = {instancePath:instancePath+"/removes",schemaPath:"#/properties/removes/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema57.properties.removes,data:data6};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data6.courses !== undefined){
let data7 = data6.courses;
if(Array.isArray(data7)){
if(data7.length < 1){
const err16 = {instancePath:instancePath+"/removes/courses",schemaPath:"#/properties/removes/properties/courses/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema57.properties.removes.properties.courses,data:data7};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
const len1 = data7.length;
for(let i1=0; i1<len1; i1++){
let data8 = data7[i1];
if(typeof data8 === "string"){
if(func1(data8) > 64){
const err17 = {instancePath:instancePath+"/removes/courses/" + i1,schemaPath:"../defs.schema.json#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data8};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if(func1(data8) < 1){
const err18 = {instancePath:instancePath+"/removes/courses/" + i1,schemaPath:"../defs.schema.json#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data8};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
if(!pattern4.test(data8)){
const err19 = {instancePath:instancePath+"/removes/courses/" + i1,schemaPath:"../defs.schema.json#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data8};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
else {
const err20 = {instancePath:instancePath+"/removes/courses/" + i1,schemaPath:"../defs.schema.json#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data8};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
let i2 = data7.length;
let j0;
if(i2 > 1){
outer0:
for(;i2--;){
for(j0 = i2; j0--;){
if(func0(data7[i2], data7[j0])){
const err21 = {instancePath:instancePath+"/removes/courses",schemaPath:"#/properties/removes/properties/courses/uniqueItems",keyword:"uniqueItems",params:{i: i2, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i2+" are identical)",schema:true,parentSchema:schema57.properties.removes.properties.courses,data:data7};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
break outer0;
}
}
}
}
}
else {
const err22 = {instancePath:instancePath+"/removes/courses",schemaPath:"#/properties/removes/properties/courses/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema57.properties.removes.properties.courses.type,parentSchema:schema57.properties.removes.properties.courses,data:data7};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data6.classes !== undefined){
let data9 = data6.classes;
if(Array.isArray(data9)){
if(data9.length < 1){
const err23 = {instancePath:instancePath+"/removes/classes",schemaPath:"#/properties/removes/properties/classes/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema57.properties.removes.properties.classes,data:data9};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
const len2 = data9.length;
for(let i3=0; i3<len2; i3++){
let data10 = data9[i3];
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
if(data10.course === undefined){
const err24 = {instancePath:instancePath+"/removes/classes/" + i3,schemaPath:"#/properties/removes/properties/classes/items/required",keyword:"required",params:{missingProperty: "course"},message:"must have required property '"+"course"+"'",schema:schema57.properties.removes.properties.classes.items.required,parentSchema:schema57.properties.removes.properties.classes.items,data:data10};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
if(data10.id === undefined){
const err25 = {instancePath:instancePath+"/removes/classes/" + i3,schemaPath:"#/properties/removes/properties/classes/items/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'",schema:schema57.properties.removes.properties.classes.items.required,parentSchema:schema57.properties.removes.properties.classes.items,data:data10};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
for(const key2 in data10){
if(!((key2 === "course") || (key2 === "id"))){
const err26 = {instancePath:instancePath+"/removes/classes/" + i3,schemaPath:"#/properties/removes/properties/classes/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties",schema:false,parentSchema:schema57.properties.removes.properties.classes.items,data:data10};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data10.course !== undefined){
let data11 = data10.course;
if(typeof data11 === "string"){
if(func1(data11) > 64){
const err27 = {instancePath:instancePath+"/removes/classes/" + i3+"/course",schemaPath:"../defs.schema.json#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data11};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
if(func1(data11) < 1){
const err28 = {instancePath:instancePath+"/removes/classes/" + i3+"/course",schemaPath:"../defs.schema.json#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data11};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
if(!pattern4.test(data11)){
const err29 = {instancePath:instancePath+"/removes/classes/" + i3+"/course",schemaPath:"../defs.schema.json#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data11};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
else {
const err30 = {instancePath:instancePath+"/removes/classes/" + i3+"/course",schemaPath:"../defs.schema.json#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data11};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data10.id !== undefined){
let data12 = data10.id;
if(typeof data12 === "string"){
if(func1(data12) > 64){
const err31 = {instancePath:instancePath+"/removes/classes/" + i3+"/id",schemaPath:"../defs.schema.json#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data12};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
if(func1(data12) < 1){
const err32 = {instancePath:instancePath+"/removes/classes/" + i3+"/id",schemaPath:"../defs.schema.json#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data12};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
if(!pattern4.test(data12)){
const err33 = {instancePath:instancePath+"/removes/classes/" + i3+"/id",schemaPath:"../defs.schema.json#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data12};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
else {
const err34 = {instancePath:instancePath+"/removes/classes/" + i3+"/id",schemaPath:"../defs.schema.json#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data12};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
}
else {
const err35 = {instancePath:instancePath+"/removes/classes/" + i3,schemaPath:"#/properties/removes/properties/classes/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema57.properties.removes.properties.classes.items.type,parentSchema:schema57.properties.removes.properties.classes.items,data:data10};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
let i4 = data9.length;
let j1;
if(i4 > 1){
outer1:
for(;i4--;){
for(j1 = i4; j1--;){
if(func0(data9[i4], data9[j1])){
const err36 = {instancePath:instancePath+"/removes/classes",schemaPath:"#/properties/removes/properties/classes/uniqueItems",keyword:"uniqueItems",params:{i: i4, j: j1},message:"must NOT have duplicate items (items ## "+j1+" and "+i4+" are identical)",schema:true,parentSchema:schema57.properties.removes.properties.classes,data:data9};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
break outer1;
}
}
}
}
}
else {
const err37 = {instancePath:instancePath+"/removes/classes",schemaPath:"#/properties/removes/properties/classes/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema57.properties.removes.properties.classes.type,parentSchema:schema57.properties.removes.properties.classes,data:data9};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
if(data6.lessons !== undefined){
let data13 = data6.lessons;
if(Array.isArray(data13)){
if(data13.length < 1){
const err38 = {instancePath:instancePath+"/removes/lessons",schemaPath:"#/properties/removes/properties/lessons/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema57.properties.removes.properties.lessons,data:data13};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
const len3 = data13.length;
for(let i5=0; i5<len3; i5++){
let data14 = data13[i5];
if(typeof data14 === "string"){
if(func1(data14) > 64){
const err39 = {instancePath:instancePath+"/removes/lessons/" + i5,schemaPath:"../defs.schema.json#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data14};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
if(func1(data14) < 1){
const err40 = {instancePath:instancePath+"/removes/lessons/" + i5,schemaPath:"../defs.schema.json#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data14};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
if(!pattern4.test(data14)){
const err41 = {instancePath:instancePath+"/removes/lessons/" + i5,schemaPath:"../defs.schema.json#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data14};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
else {
const err42 = {instancePath:instancePath+"/removes/lessons/" + i5,schemaPath:"../defs.schema.json#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data14};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
}
let i6 = data13.length;
let j2;
if(i6 > 1){
outer2:
for(;i6--;){
for(j2 = i6; j2--;){
if(func0(data13[i6], data13[j2])){
const err43 = {instancePath:instancePath+"/removes/lessons",schemaPath:"#/properties/removes/properties/lessons/uniqueItems",keyword:"uniqueItems",params:{i: i6, j: j2},message:"must NOT have duplicate items (items ## "+j2+" and "+i6+" are identical)",schema:true,parentSchema:schema57.properties.removes.properties.lessons,data:data13};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
break outer2;
}
}
}
}
}
else {
const err44 = {instancePath:instancePath+"/removes/lessons",schemaPath:"#/properties/removes/properties/lessons/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema57.properties.removes.properties.lessons.type,parentSchema:schema57.properties.removes.properties.lessons,data:data13};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
if(data6.changelog !== undefined){
let data15 = data6.changelog;
if(Array.isArray(data15)){
if(data15.length < 1){
const err45 = {instancePath:instancePath+"/removes/changelog",schemaPath:"#/properties/removes/properties/changelog/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema57.properties.removes.properties.changelog,data:data15};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
const len4 = data15.length;
for(let i7=0; i7<len4; i7++){
let data16 = data15[i7];
if(typeof data16 === "string"){
if(func1(data16) > 64){
const err46 = {instancePath:instancePath+"/removes/changelog/" + i7,schemaPath:"../defs.schema.json#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data16};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
if(func1(data16) < 1){
const err47 = {instancePath:instancePath+"/removes/changelog/" + i7,schemaPath:"../defs.schema.json#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data16};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
if(!pattern4.test(data16)){
const err48 = {instancePath:instancePath+"/removes/changelog/" + i7,schemaPath:"../defs.schema.json#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data16};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
}
else {
const err49 = {instancePath:instancePath+"/removes/changelog/" + i7,schemaPath:"../defs.schema.json#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data16};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
let i8 = data15.length;
let j3;
if(i8 > 1){
outer3:
for(;i8--;){
for(j3 = i8; j3--;){
if(func0(data15[i8], data15[j3])){
const err50 = {instancePath:instancePath+"/removes/changelog",schemaPath:"#/properties/removes/properties/changelog/uniqueItems",keyword:"uniqueItems",params:{i: i8, j: j3},message:"must NOT have duplicate items (items ## "+j3+" and "+i8+" are identical)",schema:true,parentSchema:schema57.properties.removes.properties.changelog,data:data15};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
break outer3;
}
}
}
}
}
else {
const err51 = {instancePath:instancePath+"/removes/changelog",schemaPath:"#/properties/removes/properties/changelog/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema57.properties.removes.properties.changelog.type,parentSchema:schema57.properties.removes.properties.changelog,data:data15};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
}
}
else {
const err52 = {instancePath:instancePath+"/removes",schemaPath:"#/properties/removes/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema57.properties.removes.type,parentSchema:schema57.properties.removes,data:data6};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
}
}
else {
const err53 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema57.type,parentSchema:schema57,data};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
validate31.errors = vErrors;
return errors === 0;
}
validate31.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const validate_roadmap = validate36;
const schema70 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://syllabus.example/schemas/frontmatter/roadmap.schema.json","title":"content/roadmap/index.md frontmatter","type":"object","additionalProperties":false,"required":["stages"],"properties":{"stages":{"description":"The four stages, in the order shipped, building, next, exploring.","type":"array","minItems":4,"maxItems":4,"items":{"type":"object","additionalProperties":false,"required":["key","label","note"],"properties":{"key":{"$ref":"../defs.schema.json#/$defs/StageKey"},"label":{"$ref":"../defs.schema.json#/$defs/Text"},"note":{"$ref":"../defs.schema.json#/$defs/Text"}}}}}};
const schema71 = {"type":"string","enum":["shipped","building","next","exploring"]};

function validate36(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://syllabus.example/schemas/frontmatter/roadmap.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate36.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.stages === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "stages"},message:"must have required property '"+"stages"+"'",schema:schema70.required,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!(key0 === "stages")){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.stages !== undefined){
let data0 = data.stages;
if(Array.isArray(data0)){
if(data0.length > 4){
const err2 = {instancePath:instancePath+"/stages",schemaPath:"#/properties/stages/maxItems",keyword:"maxItems",params:{limit: 4},message:"must NOT have more than 4 items",schema:4,parentSchema:schema70.properties.stages,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data0.length < 4){
const err3 = {instancePath:instancePath+"/stages",schemaPath:"#/properties/stages/minItems",keyword:"minItems",params:{limit: 4},message:"must NOT have fewer than 4 items",schema:4,parentSchema:schema70.properties.stages,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.key === undefined){
const err4 = {instancePath:instancePath+"/stages/" + i0,schemaPath:"#/properties/stages/items/required",keyword:"required",params:{missingProperty: "key"},message:"must have required property '"+"key"+"'",schema:schema70.properties.stages.items.required,parentSchema:schema70.properties.stages.items,data:data1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data1.label === undefined){
const err5 = {instancePath:instancePath+"/stages/" + i0,schemaPath:"#/properties/stages/items/required",keyword:"required",params:{missingProperty: "label"},message:"must have required property '"+"label"+"'",schema:schema70.properties.stages.items.required,parentSchema:schema70.properties.stages.items,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data1.note === undefined){
const err6 = {instancePath:instancePath+"/stages/" + i0,schemaPath:"#/properties/stages/items/required",keyword:"required",params:{missingProperty: "note"},message:"must have required property '"+"note"+"'",schema:schema70.properties.stages.items.required,parentSchema:schema70.properties.stages.items,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
for(const key1 in data1){
if(!(((key1 === "key") || (key1 === "label")) || (key1 === "note"))){
const err7 = {instancePath:instancePath+"/stages/" + i0,schemaPath:"#/properties/stages/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema70.properties.stages.items,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data1.key !== undefined){
let data2 = data1.key;
if(typeof data2 !== "string"){
const err8 = {instancePath:instancePath+"/stages/" + i0+"/key",schemaPath:"../defs.schema.json#/$defs/StageKey/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema71.type,parentSchema:schema71,data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(!((((data2 === "shipped") || (data2 === "building")) || (data2 === "next")) || (data2 === "exploring"))){
const err9 = {instancePath:instancePath+"/stages/" + i0+"/key",schemaPath:"../defs.schema.json#/$defs/StageKey/enum",keyword:"enum",params:{allowedValues: schema71.enum},message:"must be equal to one of the allowed values",schema:schema71.enum,parentSchema:schema71,data:data2};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.label !== undefined){
let data3 = data1.label;
if(typeof data3 === "string"){
if(func1(data3) > 500){
const err10 = {instancePath:instancePath+"/stages/" + i0+"/label",schemaPath:"../defs.schema.json#/$defs/Text/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema35,data:data3};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(func1(data3) < 1){
const err11 = {instancePath:instancePath+"/stages/" + i0+"/label",schemaPath:"../defs.schema.json#/$defs/Text/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema35,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(!pattern5.test(data3)){
const err12 = {instancePath:instancePath+"/stages/" + i0+"/label",schemaPath:"../defs.schema.json#/$defs/Text/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema35,data:data3};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/stages/" + i0+"/label",schemaPath:"../defs.schema.json#/$defs/Text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data3};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data1.note !== undefined){
let data4 = data1.note;
if(typeof data4 === "string"){
if(func1(data4) > 500){
const err14 = {instancePath:instancePath+"/stages/" + i0+"/note",schemaPath:"../defs.schema.json#/$defs/Text/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema35,data:data4};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(func1(data4) < 1){
const err15 = {instancePath:instancePath+"/stages/" + i0+"/note",schemaPath:"../defs.schema.json#/$defs/Text/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema35,data:data4};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(!pattern5.test(data4)){
const err16 = {instancePath:instancePath+"/stages/" + i0+"/note",schemaPath:"../defs.schema.json#/$defs/Text/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema35,data:data4};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/stages/" + i0+"/note",schemaPath:"../defs.schema.json#/$defs/Text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data4};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/stages/" + i0,schemaPath:"#/properties/stages/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema70.properties.stages.items.type,parentSchema:schema70.properties.stages.items,data:data1};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/stages",schemaPath:"#/properties/stages/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema70.properties.stages.type,parentSchema:schema70.properties.stages,data:data0};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema70.type,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
validate36.errors = vErrors;
return errors === 0;
}
validate36.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const validate_roadmap_item = validate37;
const schema74 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://syllabus.example/schemas/frontmatter/roadmap-item.schema.json","title":"content/roadmap/<slug>.md frontmatter","description":"The body is exactly one paragraph.","type":"object","additionalProperties":false,"required":["title","theme","stage"],"properties":{"title":{"$ref":"../defs.schema.json#/$defs/Text"},"theme":{"$ref":"../defs.schema.json#/$defs/Text"},"stage":{"$ref":"../defs.schema.json#/$defs/StageKey"},"shipped":{"description":"The id of the changelog entry that shipped it; required when stage is shipped, forbidden otherwise.","$ref":"../defs.schema.json#/$defs/Id"},"until_shipped":{"description":"The stage a shipped item shows in until the changelog entry named by \"shipped\" is published (its date, 00:00 UTC); default building. Only on shipped items.","type":"string","enum":["building","next","exploring"]},"order":{"description":"Position within its stage; items without one follow, by title.","type":"integer","minimum":0}}};

function validate37(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://syllabus.example/schemas/frontmatter/roadmap-item.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate37.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.title === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "title"},message:"must have required property '"+"title"+"'",schema:schema74.required,parentSchema:schema74,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.theme === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "theme"},message:"must have required property '"+"theme"+"'",schema:schema74.required,parentSchema:schema74,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.stage === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "stage"},message:"must have required property '"+"stage"+"'",schema:schema74.required,parentSchema:schema74,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!((((((key0 === "title") || (key0 === "theme")) || (key0 === "stage")) || (key0 === "shipped")) || (key0 === "until_shipped")) || (key0 === "order"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema74,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.title !== undefined){
let data0 = data.title;
if(typeof data0 === "string"){
if(func1(data0) > 500){
const err4 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(func1(data0) < 1){
const err5 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(!pattern5.test(data0)){
const err6 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/title",schemaPath:"../defs.schema.json#/$defs/Text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.theme !== undefined){
let data1 = data.theme;
if(typeof data1 === "string"){
if(func1(data1) > 500){
const err8 = {instancePath:instancePath+"/theme",schemaPath:"../defs.schema.json#/$defs/Text/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters",schema:500,parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(func1(data1) < 1){
const err9 = {instancePath:instancePath+"/theme",schemaPath:"../defs.schema.json#/$defs/Text/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(!pattern5.test(data1)){
const err10 = {instancePath:instancePath+"/theme",schemaPath:"../defs.schema.json#/$defs/Text/pattern",keyword:"pattern",params:{pattern: "\\S"},message:"must match pattern \""+"\\S"+"\"",schema:"\\S",parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/theme",schemaPath:"../defs.schema.json#/$defs/Text/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.stage !== undefined){
let data2 = data.stage;
if(typeof data2 !== "string"){
const err12 = {instancePath:instancePath+"/stage",schemaPath:"../defs.schema.json#/$defs/StageKey/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema71.type,parentSchema:schema71,data:data2};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(!((((data2 === "shipped") || (data2 === "building")) || (data2 === "next")) || (data2 === "exploring"))){
const err13 = {instancePath:instancePath+"/stage",schemaPath:"../defs.schema.json#/$defs/StageKey/enum",keyword:"enum",params:{allowedValues: schema71.enum},message:"must be equal to one of the allowed values",schema:schema71.enum,parentSchema:schema71,data:data2};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.shipped !== undefined){
let data3 = data.shipped;
if(typeof data3 === "string"){
if(func1(data3) > 64){
const err14 = {instancePath:instancePath+"/shipped",schemaPath:"../defs.schema.json#/$defs/Id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters",schema:64,parentSchema:schema33,data:data3};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(func1(data3) < 1){
const err15 = {instancePath:instancePath+"/shipped",schemaPath:"../defs.schema.json#/$defs/Id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema33,data:data3};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(!pattern4.test(data3)){
const err16 = {instancePath:instancePath+"/shipped",schemaPath:"../defs.schema.json#/$defs/Id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$"},message:"must match pattern \""+"^[a-z0-9]+(?:-[a-z0-9]+)*$"+"\"",schema:"^[a-z0-9]+(?:-[a-z0-9]+)*$",parentSchema:schema33,data:data3};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/shipped",schemaPath:"../defs.schema.json#/$defs/Id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data3};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.until_shipped !== undefined){
let data4 = data.until_shipped;
if(typeof data4 !== "string"){
const err18 = {instancePath:instancePath+"/until_shipped",schemaPath:"#/properties/until_shipped/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema74.properties.until_shipped.type,parentSchema:schema74.properties.until_shipped,data:data4};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
if(!(((data4 === "building") || (data4 === "next")) || (data4 === "exploring"))){
const err19 = {instancePath:instancePath+"/until_shipped",schemaPath:"#/properties/until_shipped/enum",keyword:"enum",params:{allowedValues: schema74.properties.until_shipped.enum},message:"must be equal to one of the allowed values",schema:schema74.properties.until_shipped.enum,parentSchema:schema74.properties.until_shipped,data:data4};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.order !== undefined){
let data5 = data.order;
if(!(((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5))) && (isFinite(data5)))){
const err20 = {instancePath:instancePath+"/order",schemaPath:"#/properties/order/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema74.properties.order.type,parentSchema:schema74.properties.order,data:data5};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if((typeof data5 == "number") && (isFinite(data5))){
if(data5 < 0 || isNaN(data5)){
const err21 = {instancePath:instancePath+"/order",schemaPath:"#/properties/order/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema74.properties.order,data:data5};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
}
else {
const err22 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema74.type,parentSchema:schema74,data};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
validate37.errors = vErrors;
return errors === 0;
}
validate37.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


/** The validator of each kind of content file. */
export default {
  "catalog": validate_catalog,
  "course": validate_course,
  "class": validate_class,
  "lesson": validate_lesson,
  "changelog": validate_changelog,
  "roadmap": validate_roadmap,
  "roadmap-item": validate_roadmap_item,
};
